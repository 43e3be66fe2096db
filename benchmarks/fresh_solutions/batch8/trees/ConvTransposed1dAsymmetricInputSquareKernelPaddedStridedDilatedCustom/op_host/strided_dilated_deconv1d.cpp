#include "strided_dilated_deconv1d_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_COLS_PER_TILE = 1024;
constexpr uint32_t UB_RESERVED_BYTES = 8 * 1024;
constexpr uint32_t MAX_TAPS = 16;

static inline uint32_t AlignDown8(uint32_t v) { return v / 8 * 8; }
static inline uint32_t AlignUp8(uint32_t v) { return (v + 7) / 8 * 8; }

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    StridedDilatedDeconv1dTilingData tiling;
    const gert::Shape &xShape = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape &wShape = context->GetInputShape(1)->GetOriginShape();
    if (xShape.GetDimNum() != 3 || wShape.GetDimNum() != 3) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t n = static_cast<uint32_t>(xShape.GetDim(0));
    const uint32_t cin = static_cast<uint32_t>(xShape.GetDim(1));
    const uint32_t len = static_cast<uint32_t>(xShape.GetDim(2));
    const uint32_t cout = static_cast<uint32_t>(wShape.GetDim(1));
    const uint32_t k = static_cast<uint32_t>(wShape.GetDim(2));

    auto attrs = context->GetAttrs();
    const int32_t stride = static_cast<int32_t>(*attrs->GetInt(0));
    const int32_t pad = static_cast<int32_t>(*attrs->GetInt(1));
    const int32_t dil = static_cast<int32_t>(*attrs->GetInt(2));
    if (stride <= 0 || dil <= 0 || k > MAX_TAPS) {
        return ge::GRAPH_FAILED;
    }
    const int64_t outLen64 = static_cast<int64_t>(len - 1) * stride - 2 * pad +
                             static_cast<int64_t>(dil) * (k - 1) + 1;
    if (outLen64 <= 0) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t outLen = static_cast<uint32_t>(outLen64);

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = platform.GetCoreNumAiv();

    // The whole weight tensor stays resident in UB for the lifetime of the kernel.
    const uint32_t weightElems = AlignUp8(cin * cout * k);
    const uint64_t weightBytes = static_cast<uint64_t>(weightElems) * sizeof(float);
    if (weightBytes + UB_RESERVED_BYTES >= ubSize) {
        return ge::GRAPH_FAILED;
    }
    // Per input-domain column we need:
    //   Cin*K shifted copies of x, stride accumulators, 2*stride output slots (double buffer),
    //   stride gather offsets.
    const uint64_t bytesPerCol = (static_cast<uint64_t>(cin) * k + 4ULL * stride) * sizeof(float);
    uint32_t cols = static_cast<uint32_t>((ubSize - weightBytes - UB_RESERVED_BYTES) / bytesPerCol);
    cols = AlignDown8(cols);
    if (cols > MAX_COLS_PER_TILE) {
        cols = MAX_COLS_PER_TILE;
    }
    if (cols == 0) {
        return ge::GRAPH_FAILED;
    }
    // A tile covers stride*cols output positions.
    const uint32_t outPerTile = cols * static_cast<uint32_t>(stride);
    const uint32_t tilesPerRow = (outLen + outPerTile - 1) / outPerTile;
    const uint32_t totalTiles = n * tilesPerRow;
    if (coreNum == 0) {
        coreNum = 1;
    }
    const uint32_t blockDim = totalTiles < coreNum ? totalTiles : coreNum;
    context->SetBlockDim(blockDim);

    tiling.set_batch(n);
    tiling.set_inChannels(cin);
    tiling.set_outChannels(cout);
    tiling.set_inLen(len);
    tiling.set_outLen(outLen);
    tiling.set_kernelSize(k);
    tiling.set_stride(stride);
    tiling.set_padding(pad);
    tiling.set_dilation(dil);
    tiling.set_colsPerTile(cols);
    tiling.set_tilesPerRow(tilesPerRow);
    tiling.set_totalTiles(totalTiles);
    tiling.set_weightElems(weightElems);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *xShape = context->GetInputShape(0);
    const gert::Shape *wShape = context->GetInputShape(1);
    auto attrs = context->GetAttrs();
    const int64_t stride = *attrs->GetInt(0);
    const int64_t pad = *attrs->GetInt(1);
    const int64_t dil = *attrs->GetInt(2);
    const int64_t len = xShape->GetDim(2);
    const int64_t k = wShape->GetDim(2);
    gert::Shape *yShape = context->GetOutputShape(0);
    yShape->SetDimNum(3);
    yShape->SetDim(0, xShape->GetDim(0));
    yShape->SetDim(1, wShape->GetDim(1));
    yShape->SetDim(2, (len - 1) * stride - 2 * pad + dil * (k - 1) + 1);
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class StridedDilatedDeconv1dCustom : public OpDef {
public:
    explicit StridedDilatedDeconv1dCustom(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("padding").AttrType(OPTIONAL).Int(0);
        this->Attr("dilation").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(StridedDilatedDeconv1dCustom);
} // namespace ops
