#include "lstm_pointwise_cell_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// gates(4) + c(1) double buffered, h/c outputs double buffered, 2 scratch rows
constexpr uint32_t ROW_SLOTS = 2 * 5 + 2 * 2 + 2;

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const gert::Shape &g = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape &c = context->GetInputShape(1)->GetOriginShape();
    if (g.GetDimNum() != 2 || c.GetDimNum() != 2 || g.GetDim(1) != 4 * c.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t rows = static_cast<uint32_t>(c.GetDim(0));
    const uint32_t hidden = static_cast<uint32_t>(c.GetDim(1));
    const uint32_t hAlign = (hidden + 7) / 8 * 8;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    if (static_cast<uint64_t>(hAlign) * ROW_SLOTS * sizeof(float) > ub) {
        return ge::GRAPH_FAILED;   // hidden size too large for the one-row-per-pass scheme
    }
    const uint32_t cores = plat.GetCoreNumAiv();

    LstmPointwiseCellTilingData td;
    td.set_rows(rows);
    td.set_hidden(hidden);
    td.set_hiddenAlign(hAlign);
    // One batch row per core per pass; rows beyond the core count wrap around.
    context->SetBlockDim(rows < cores ? rows : cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *c = context->GetInputShape(1);
    *context->GetOutputShape(0) = *c;
    *context->GetOutputShape(1) = *c;
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    context->SetOutputDataType(1, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class LstmPointwiseCellCustom : public OpDef {
public:
    explicit LstmPointwiseCellCustom(const char *name) : OpDef(name)
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
OP_ADD(LstmPointwiseCellCustom);
} // namespace ops
