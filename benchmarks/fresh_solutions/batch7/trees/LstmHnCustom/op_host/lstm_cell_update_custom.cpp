#include "lstm_cell_update_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static constexpr uint32_t FLOATS_PER_BLOCK = 8;   // 32 bytes / sizeof(float)

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const gert::StorageShape *gateShape = context->GetInputShape(0);
    const gert::StorageShape *cellShape = context->GetInputShape(1);
    if (gateShape == nullptr || cellShape == nullptr) {
        return ge::GRAPH_FAILED;
    }
    const auto &gs = gateShape->GetStorageShape();
    const auto &cs = cellShape->GetStorageShape();
    if (gs.GetDimNum() != 2 || cs.GetDimNum() != 2) {
        return ge::GRAPH_FAILED;
    }
    uint32_t batch = static_cast<uint32_t>(cs.GetDim(0));
    uint32_t hidden = static_cast<uint32_t>(cs.GetDim(1));
    if (static_cast<uint32_t>(gs.GetDim(1)) != 4 * hidden || static_cast<uint32_t>(gs.GetDim(0)) != batch) {
        return ge::GRAPH_FAILED;
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    if (coreNum == 0) {
        coreNum = 1;
    }
    // Batch rows are independent; a row is the natural unit of work.
    uint32_t usedCores = batch < coreNum ? batch : coreNum;
    if (usedCores == 0) {
        usedCores = 1;
    }

    LstmCellUpdateTilingData tiling;
    tiling.set_batch(batch);
    tiling.set_hidden(hidden);
    tiling.set_hiddenAlign((hidden + FLOATS_PER_BLOCK - 1) / FLOATS_PER_BLOCK * FLOATS_PER_BLOCK);
    tiling.set_rowsPerCore(batch / usedCores);
    tiling.set_bigCoreNum(batch % usedCores);

    context->SetBlockDim(usedCores);
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
    const gert::Shape *cShape = context->GetInputShape(1);
    *context->GetOutputShape(0) = *cShape;
    *context->GetOutputShape(1) = *cShape;
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    auto dt = context->GetInputDataType(1);
    context->SetOutputDataType(0, dt);
    context->SetOutputDataType(1, dt);
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class LstmCellUpdateCustom : public OpDef {
public:
    explicit LstmCellUpdateCustom(const char *name) : OpDef(name)
    {
        this->Input("gates")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("c_prev")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("h_next")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("c_next")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(LstmCellUpdateCustom);
} // namespace ops
