#include "bi_gru_final_state_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus BiGruFinalStateInferShape(gert::InferShapeContext *ctx)
{
    // final hidden state has the layout of the initial one
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(1);
    return GRAPH_SUCCESS;
}
static graphStatus BiGruFinalStateInferDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class BiGruFinalState : public OpDef {
public:
    explicit BiGruFinalState(const char *name) : OpDef(name)
    {
        AddFloatInput("x");            // (T, B, I)
        AddFloatInput("h0");           // (2L, B, H)
        AddFloatInput("w_ih_first");   // (2, 3H, I)
        AddFloatInput("w_ih_rest");    // (max(L-1,1), 2, 3H, 2H)
        AddFloatInput("w_hh");         // (L, 2, 3H, H)
        AddFloatInput("b_ih");         // (L, 2, 3H)
        AddFloatInput("b_hh");         // (L, 2, 3H)
        this->Output("h_n")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::BiGruFinalStateInferShape).SetInferDataType(ge::BiGruFinalStateInferDtype);
        this->AICore().SetTiling(optiling::BiGruFinalStateTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }

private:
    void AddFloatInput(const char *name)
    {
        this->Input(name)
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
    }
};
OP_ADD(BiGruFinalState);
} // namespace ops
