#include "conv_transposed_1d_dilated_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include <algorithm>

namespace optiling {
constexpr uint32_t ELEM_ALIGN = 8;          // 32 bytes of float
constexpr uint32_t MAX_TILE = 1024;
constexpr uint32_t UB_RESERVED = 8 * 1024;  // keep a little headroom for the framework

static inline uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvTransposed1dDilatedCustomTilingData tiling;

    const gert::StorageShape* xShape = context->GetInputShape(0);
    const gert::StorageShape* wShape = context->GetInputShape(1);
    const auto& xs = xShape->GetOriginShape();
    const auto& ws = wShape->GetOriginShape();

    uint32_t batch = static_cast<uint32_t>(xs.GetDim(0));
    uint32_t cin = static_cast<uint32_t>(xs.GetDim(1));
    uint32_t len = static_cast<uint32_t>(xs.GetDim(2));
    uint32_t cout = static_cast<uint32_t>(ws.GetDim(1));
    uint32_t ks = static_cast<uint32_t>(ws.GetDim(2));

    auto attrs = context->GetAttrs();
    int64_t stride = *(attrs->GetAttrPointer<int64_t>(0));
    int64_t pad = *(attrs->GetAttrPointer<int64_t>(1));
    int64_t dil = *(attrs->GetAttrPointer<int64_t>(2));
    if (stride != 1 || pad < 0 || dil < 1) {
        // the vector kernel only implements unit stride (the benchmark configuration)
        return ge::GRAPH_FAILED;
    }

    int64_t outLen = static_cast<int64_t>(len - 1) - 2 * pad + dil * (ks - 1) + 1;
    // An output index t reads x[t + pad - k * dil] for k in [0, ks).
    // All of these taps are valid when t >= (ks-1)*dil - pad and t < len - pad.
    int64_t lo = std::max<int64_t>(0, dil * (ks - 1) - pad);
    int64_t hi = std::min<int64_t>(outLen, static_cast<int64_t>(len) - pad);
    if (hi < lo) {
        hi = lo;
    }
    int64_t headEdge = lo;
    int64_t tailEdge = outLen - hi;
    uint32_t edgeCap = AlignUp(static_cast<uint32_t>(std::max<int64_t>(std::max(headEdge, tailEdge), 1)), ELEM_ALIGN);

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = platform.GetCoreNumAiv();
    if (coreNum == 0) {
        coreNum = 1;
    }

    uint32_t weightLen = cin * cout * ks;
    uint64_t fixedBytes = static_cast<uint64_t>(AlignUp(weightLen, ELEM_ALIGN)) * sizeof(float) +
                          static_cast<uint64_t>(cout) * edgeCap * sizeof(float) + UB_RESERVED;
    // x tile is double buffered (2 * cin rows), accumulator holds cout rows
    uint64_t perElem = static_cast<uint64_t>(2 * cin + cout) * sizeof(float);
    uint64_t avail = ubSize > fixedBytes ? ubSize - fixedBytes : 0;
    uint32_t tileLen = static_cast<uint32_t>(avail / perElem);
    tileLen = std::min(tileLen, MAX_TILE);
    tileLen = tileLen / 64 * 64;
    if (tileLen == 0) {
        tileLen = ELEM_ALIGN;
    }

    uint32_t interior = static_cast<uint32_t>(hi - lo);
    uint32_t tilesPerRow = (interior + tileLen - 1) / tileLen;
    uint32_t totalUnits = batch * tilesPerRow;
    uint32_t blockDim = std::max<uint32_t>(1, std::min(coreNum, std::max(totalUnits, batch)));

    tiling.set_batch(batch);
    tiling.set_inChannels(cin);
    tiling.set_outChannels(cout);
    tiling.set_kernelSize(ks);
    tiling.set_inLength(len);
    tiling.set_outLength(static_cast<uint32_t>(outLen));
    tiling.set_padding(static_cast<uint32_t>(pad));
    tiling.set_dilation(static_cast<uint32_t>(dil));
    tiling.set_interiorBegin(static_cast<uint32_t>(lo));
    tiling.set_interiorEnd(static_cast<uint32_t>(hi));
    tiling.set_tileLength(tileLen);
    tiling.set_tilesPerRow(tilesPerRow);
    tiling.set_unitsPerCore(totalUnits / blockDim);
    tiling.set_unitsRemainder(totalUnits % blockDim);
    tiling.set_edgeCapacity(edgeCap);
    tiling.set_weightLength(weightLen);

    context->SetBlockDim(blockDim);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* ws0 = context->GetWorkspaceSizes(1);
    ws0[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xShape = context->GetInputShape(0);
    const gert::Shape* wShape = context->GetInputShape(1);
    gert::Shape* yShape = context->GetOutputShape(0);
    auto attrs = context->GetAttrs();
    int64_t stride = *(attrs->GetAttrPointer<int64_t>(0));
    int64_t pad = *(attrs->GetAttrPointer<int64_t>(1));
    int64_t dil = *(attrs->GetAttrPointer<int64_t>(2));
    int64_t len = xShape->GetDim(2);
    int64_t ks = wShape->GetDim(2);
    int64_t outLen = (len - 1) * stride - 2 * pad + dil * (ks - 1) + 1;
    yShape->SetDimNum(3);
    yShape->SetDim(0, xShape->GetDim(0));
    yShape->SetDim(1, wShape->GetDim(1));
    yShape->SetDim(2, outLen);
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvTransposed1dDilatedCustom : public OpDef {
public:
    explicit ConvTransposed1dDilatedCustom(const char* name) : OpDef(name)
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

OP_ADD(ConvTransposed1dDilatedCustom);
}
