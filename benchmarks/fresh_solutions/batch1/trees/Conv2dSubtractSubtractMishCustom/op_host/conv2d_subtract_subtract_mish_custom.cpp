#include "conv2d_subtract_subtract_mish_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t FLOAT_ALIGN = 8;                 // 32 bytes / sizeof(float)
constexpr uint64_t UB_RESERVED = 8 * 1024;          // headroom for the framework

static inline uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    Conv2dSubtractSubtractMishCustomTilingData tiling;

    const gert::StorageShape* xShape = context->GetInputShape(0);
    const gert::StorageShape* wShape = context->GetInputShape(1);
    uint32_t n  = xShape->GetStorageShape().GetDim(0);
    uint32_t ci = xShape->GetStorageShape().GetDim(1);
    uint32_t h  = xShape->GetStorageShape().GetDim(2);
    uint32_t w  = xShape->GetStorageShape().GetDim(3);
    uint32_t co = wShape->GetStorageShape().GetDim(0);
    uint32_t k  = wShape->GetStorageShape().GetDim(2);
    uint32_t oh = h - k + 1;
    uint32_t ow = w - k + 1;
    uint32_t owAlign = AlignUp(ow, FLOAT_ALIGN);

    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    float sub1 = *(attrs->GetFloat(0));
    float sub2 = *(attrs->GetFloat(1));

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    // Fixed UB consumers: all shifted input taps of one output row, all weights, bias.
    uint64_t tapBytes = static_cast<uint64_t>(ci) * k * k * owAlign * sizeof(float);
    uint64_t weightBytes = AlignUp(co * ci * k * k, FLOAT_ALIGN) * sizeof(float);
    uint64_t biasBytes = AlignUp(co, FLOAT_ALIGN) * sizeof(float);
    uint64_t fixedBytes = tapBytes + weightBytes + biasBytes + UB_RESERVED;

    // Per output channel: 2 output buffers (double buffered) + 2 temporaries for mish.
    uint64_t perOc = 4ULL * owAlign * sizeof(float);
    uint32_t ocTile = 1;
    if (ubSize > fixedBytes) {
        ocTile = static_cast<uint32_t>((ubSize - fixedBytes) / perOc);
    }
    if (ocTile > co) ocTile = co;
    if (ocTile > 16) ocTile = 16;
    if (ocTile == 0) ocTile = 1;
    while (co % ocTile != 0) {
        ocTile--;
    }

    uint32_t totalRows = n * oh;
    uint32_t blockDim = coreNum < totalRows ? coreNum : totalRows;
    if (blockDim == 0) blockDim = 1;
    uint32_t rowsPerCore = (totalRows + blockDim - 1) / blockDim;
    blockDim = (totalRows + rowsPerCore - 1) / rowsPerCore;

    tiling.set_batch(n);
    tiling.set_inChannels(ci);
    tiling.set_inHeight(h);
    tiling.set_inWidth(w);
    tiling.set_outChannels(co);
    tiling.set_kernelSize(k);
    tiling.set_outHeight(oh);
    tiling.set_outWidth(ow);
    tiling.set_outWidthAlign(owAlign);
    tiling.set_totalRows(totalRows);
    tiling.set_rowsPerCore(rowsPerCore);
    tiling.set_ocTile(ocTile);
    tiling.set_subtractTotal(sub1 + sub2);

    context->SetBlockDim(blockDim);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xShape = context->GetInputShape(0);
    const gert::Shape* wShape = context->GetInputShape(1);
    gert::Shape* yShape = context->GetOutputShape(0);
    int64_t k = wShape->GetDim(2);
    yShape->SetDimNum(4);
    yShape->SetDim(0, xShape->GetDim(0));
    yShape->SetDim(1, wShape->GetDim(0));
    yShape->SetDim(2, xShape->GetDim(2) - k + 1);
    yShape->SetDim(3, xShape->GetDim(3) - k + 1);
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class Conv2dSubtractSubtractMishCustom : public OpDef {
public:
    explicit Conv2dSubtractSubtractMishCustom(const char* name) : OpDef(name)
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
        this->Input("bias")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("subtract_value_1").Float();
        this->Attr("subtract_value_2").Float();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(Conv2dSubtractSubtractMishCustom);
}
