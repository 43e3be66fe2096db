#include "sum_reduction_over_a_dimension_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t COL_TILE = 1024;
constexpr uint32_t TILE_ELEMS = 16384;   // 64KB per input buffer

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    SumReductionOverADimensionCustomTilingData tiling;
    const gert::Shape& xs = context->GetInputShape(0)->GetOriginShape();
    int32_t rank = static_cast<int32_t>(xs.GetDimNum());
    int32_t dim = static_cast<int32_t>(*context->GetAttrs()->GetInt(0));
    if (dim < 0) dim += rank;

    uint32_t outer = 1, inner = 1;
    for (int32_t i = 0; i < dim; ++i) outer *= xs.GetDim(i);
    for (int32_t i = dim + 1; i < rank; ++i) inner *= xs.GetDim(i);
    uint32_t reduceLen = xs.GetDim(dim);
    if (inner % 8 != 0) {
        return ge::GRAPH_FAILED;   // strided column path needs whole 32B blocks
    }

    uint32_t colTile = inner < COL_TILE ? inner : COL_TILE;
    uint32_t colTiles = (inner + colTile - 1) / colTile;
    uint32_t rowTile = TILE_ELEMS / colTile;
    if (rowTile > reduceLen) rowTile = reduceLen;

    tiling.set_outer(outer);
    tiling.set_reduceLen(reduceLen);
    tiling.set_inner(inner);
    tiling.set_colTile(colTile);
    tiling.set_colTiles(colTiles);
    tiling.set_rowTile(rowTile);
    tiling.set_taskNum(outer * colTiles);

    uint32_t cores = platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCoreNumAiv();
    uint32_t tasks = outer * colTiles;
    context->SetBlockDim(tasks < cores ? tasks : cores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    gert::Shape* ys = context->GetOutputShape(0);
    int64_t dim = *context->GetAttrs()->GetInt(0);
    if (dim < 0) dim += xs->GetDimNum();
    *ys = *xs;
    ys->SetDim(dim, 1);   // keepdim
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class SumReductionOverADimensionCustom : public OpDef {
public:
    explicit SumReductionOverADimensionCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
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

OP_ADD(SumReductionOverADimensionCustom);
}
