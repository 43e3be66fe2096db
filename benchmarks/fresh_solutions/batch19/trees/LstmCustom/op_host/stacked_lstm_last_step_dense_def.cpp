#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus StackedLstmLastStepDenseTiling(gert::TilingContext *ctx);
}

namespace ge {
static graphStatus StackedLstmInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *fc = ctx->GetInputShape(7);
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(2);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, fc->GetDim(0));
    return GRAPH_SUCCESS;
}
static graphStatus StackedLstmInferType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class StackedLstmLastStepDense : public OpDef {
public:
    explicit StackedLstmLastStepDense(const char *name) : OpDef(name)
    {
        auto addIn = [this](const char *n, Option opt) {
            this->Input(n).ParamType(opt).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
                .UnknownShapeFormat({ge::FORMAT_ND});
        };
        addIn("x", REQUIRED);            // [B, T, I], batch first
        addIn("h0", REQUIRED);           // [L, B, H]
        addIn("c0", REQUIRED);           // [L, B, H]
        addIn("w_ih_first", REQUIRED);   // [4H, I]  gate order i, f, g, o
        addIn("w_ih_rest", OPTIONAL);    // [L-1, 4H, H]
        addIn("w_hh", REQUIRED);         // [L, 4H, H]
        addIn("bias", REQUIRED);         // [L, 4H]  (b_ih + b_hh)
        addIn("fc_weight", REQUIRED);    // [O, H]
        addIn("fc_bias", REQUIRED);      // [O]
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::StackedLstmInferShape).SetInferDataType(ge::StackedLstmInferType);
        this->AICore().SetTiling(optiling::StackedLstmLastStepDenseTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(StackedLstmLastStepDense);
}
