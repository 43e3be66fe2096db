#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus StackedGruTiling(gert::TilingContext *context);
}

namespace ge {
// h_n has the same shape as h0: (num_layers, batch, hidden)
static graphStatus GruFinalInferShape(gert::InferShapeContext *ctx)
{
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(1);
    return GRAPH_SUCCESS;
}
static graphStatus GruFinalInferType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(1));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class StackedGruFinalState : public OpDef {
public:
    explicit StackedGruFinalState(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("h0").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        // layer 0 input weights, (3H, I), gate order r|z|n
        this->Input("w_ih_first").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        // input weights of layers 1..L-1 stacked, (L-1, 3H, H); absent for a single layer
        this->Input("w_ih_rest").ParamType(OPTIONAL).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("w_hh").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("b_ih").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("b_hh").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("h_n").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("batch_first").AttrType(OPTIONAL).Bool(false);

        this->SetInferShape(ge::GruFinalInferShape).SetInferDataType(ge::GruFinalInferType);
        this->AICore().SetTiling(optiling::StackedGruTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(StackedGruFinalState);
}  // namespace ops
