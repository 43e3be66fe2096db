#include "lstm_last_step_dense_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus LstmLastStepDenseShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *fc = ctx->GetInputShape(7);
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(2);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, fc->GetDim(1));
    return GRAPH_SUCCESS;
}
static graphStatus LstmLastStepDenseDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ge::DT_FLOAT);
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class LstmLastStepDense : public OpDef {
public:
    explicit LstmLastStepDense(const char *name) : OpDef(name)
    {
        auto addIn = [this](const char *n) {
            this->Input(n).ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
                .UnknownShapeFormat({ge::FORMAT_ND});
        };
        addIn("x");            // [B, T, I]
        addIn("h0");           // [L, B, H]
        addIn("c0");           // [L, B, H]
        addIn("w_ih_first");   // [I, 4H]  (transposed, gate order i, f, g, o)
        addIn("w_ih_rest");    // [max(L-1,1), H, 4H]
        addIn("w_hh");         // [L, H, 4H]
        addIn("bias");         // [L, 4H]  (b_ih + b_hh)
        addIn("fc_weight");    // [H, O]   (transposed)
        addIn("fc_bias");      // [O]
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::LstmLastStepDenseShape).SetInferDataType(ge::LstmLastStepDenseDtype);
        this->AICore().SetTiling(optiling::LstmLastStepDenseTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(LstmLastStepDense);
} // namespace ops
