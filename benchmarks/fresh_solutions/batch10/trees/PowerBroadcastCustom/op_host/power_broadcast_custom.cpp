#include "power_broadcast_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_TILE_COLS = 4096;
constexpr uint32_t MIN_COLS_PER_CORE = 256;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    PowerBroadcastCustomTilingData tiling;
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& es = context->GetInputShape(1)->GetStorageShape();
    uint32_t cols = static_cast<uint32_t>(es.GetShapeSize());
    uint32_t total = static_cast<uint32_t>(xs.GetShapeSize());
    if (cols == 0 || total % cols != 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rows = total / cols;

    // Split along the exponent axis so each core loads its exponent slice only once
    // and reuses it for every broadcast row.
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = plat.GetCoreNumAiv();
    uint32_t colsPerCore = (cols + coreNum - 1) / coreNum;
    if (colsPerCore < MIN_COLS_PER_CORE) {
        colsPerCore = MIN_COLS_PER_CORE;
    }
    colsPerCore = (colsPerCore + 7) / 8 * 8;
    uint32_t blockDim = (cols + colsPerCore - 1) / colsPerCore;
    uint32_t tileCols = colsPerCore < MAX_TILE_COLS ? colsPerCore : MAX_TILE_COLS;

    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_colsPerCore(colsPerCore);
    tiling.set_tileCols(tileCols);
    context->SetBlockDim(blockDim);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    gert::Shape* y = context->GetOutputShape(0);
    *y = *x;
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class PowerBroadcastCustom : public OpDef {
public:
    explicit PowerBroadcastCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("exponent")
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

OP_ADD(PowerBroadcastCustom);
}
