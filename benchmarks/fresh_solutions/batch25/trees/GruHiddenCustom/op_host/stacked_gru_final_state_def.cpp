#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus StackedGruFinalStateTiling(gert::TilingContext *context);
}

namespace ge {
static graphStatus StackedGruInferShape(gert::InferShapeContext *context)
{
    // final hidden state has the same shape as the initial one: (L, B, H)
    const gert::Shape *h0 = context->GetInputShape(1);
    gert::Shape *hn = context->GetOutputShape(0);
    *hn = *h0;
    return GRAPH_SUCCESS;
}

static graphStatus StackedGruInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(1));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class StackedGruFinalState : public OpDef {
public:
    explicit StackedGruFinalState(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("h0").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        // input-to-hidden weights of all layers, each stored transposed (in_features, 3H)
        // and packed back to back: layer 0 is (I, 3H), every other layer (H, 3H)
        this->Input("weight_ih").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        // hidden-to-hidden weights, (L, H, 3H) transposed
        this->Input("weight_hh").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias_ih").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias_hh").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("h_n").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::StackedGruInferShape).SetInferDataType(ge::StackedGruInferDtype);
        this->AICore().SetTiling(optiling::StackedGruFinalStateTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(StackedGruFinalState);
}  // namespace ops
