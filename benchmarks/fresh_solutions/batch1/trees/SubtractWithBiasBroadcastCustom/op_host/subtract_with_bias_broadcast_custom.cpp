#include "subtract_with_bias_broadcast_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t ALIGN_ELEMS = 8;            // 32B of fp32
constexpr uint32_t MIN_COLS_PER_CORE = 256;    // don't split below 1KB per row slice
constexpr uint32_t TILE_BYTES_BUDGET = 24 * 1024;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    SubtractWithBiasBroadcastCustomTilingData tiling;
    auto xShape = context->GetInputShape(0)->GetOriginShape();
    auto bShape = context->GetInputShape(1)->GetOriginShape();

    uint32_t cols = static_cast<uint32_t>(bShape.GetDim(bShape.GetDimNum() - 1));
    uint32_t total = static_cast<uint32_t>(xShape.GetShapeSize());
    uint32_t rows = total / cols;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = plat.GetCoreNumAiv();

    // Columns are split across cores so each core keeps only its bias slice in UB.
    uint32_t maxCores = (cols + MIN_COLS_PER_CORE - 1) / MIN_COLS_PER_CORE;
    uint32_t useCores = coreNum < maxCores ? coreNum : maxCores;
    if (useCores == 0) useCores = 1;
    uint32_t colsPerCore = (cols + useCores - 1) / useCores;
    colsPerCore = (colsPerCore + ALIGN_ELEMS - 1) / ALIGN_ELEMS * ALIGN_ELEMS;
    useCores = (cols + colsPerCore - 1) / colsPerCore;
    uint32_t lastCoreCols = cols - colsPerCore * (useCores - 1);

    uint32_t rowsPerTile = TILE_BYTES_BUDGET / (colsPerCore * sizeof(float));
    if (rowsPerTile == 0) rowsPerTile = 1;
    if (rowsPerTile > rows) rowsPerTile = rows;

    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_colsPerCore(colsPerCore);
    tiling.set_lastCoreCols(lastCoreCols);
    tiling.set_rowsPerTile(rowsPerTile);

    context->SetBlockDim(useCores);
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
class SubtractWithBiasBroadcastCustom : public OpDef {
public:
    explicit SubtractWithBiasBroadcastCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
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

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(SubtractWithBiasBroadcastCustom);
}
