#include "masked_cumsum_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_LEN = 4096;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    MaskedCumsumCustomTilingData tiling;
    const gert::Shape& shape = context->GetInputShape(0)->GetStorageShape();
    int64_t rank = static_cast<int64_t>(shape.GetDimNum());
    int64_t dim = *context->GetAttrs()->GetAttrPointer<int64_t>(0);
    if (dim < 0) {
        dim += rank;
    }
    // this kernel scans along the innermost axis (the benchmark uses dim=1 on a 2-D tensor)
    if (dim != rank - 1) {
        return ge::GRAPH_FAILED;
    }
    uint32_t scanLen = static_cast<uint32_t>(shape.GetDim(rank - 1));
    uint32_t outer = static_cast<uint32_t>(shape.GetShapeSize() / scanLen);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > outer) cores = outer;
    if (cores == 0) cores = 1;

    uint32_t tileLen = (scanLen + 31) / 32 * 32;
    if (tileLen > TILE_LEN) tileLen = TILE_LEN;

    tiling.set_outer(outer);
    tiling.set_scanLen(scanLen);
    tiling.set_rowsPerCore(outer / cores);
    tiling.set_remRows(outer % cores);
    tiling.set_tileLen(tileLen);

    context->SetBlockDim(cores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class MaskedCumsumCustom : public OpDef {
public:
    explicit MaskedCumsumCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("mask")
            .ParamType(REQUIRED)
            .DataType({ge::DT_BOOL})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("dim").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(MaskedCumsumCustom);
}
