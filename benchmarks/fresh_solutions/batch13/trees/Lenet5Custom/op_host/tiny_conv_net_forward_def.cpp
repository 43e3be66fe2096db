#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus TinyConvNetTiling(gert::TilingContext *context);
}

namespace ge {
static graphStatus TinyConvNetInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *fc3w = context->GetInputShape(9);
    gert::Shape *y = context->GetOutputShape(0);
    y->SetDimNum(2);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, fc3w->GetDim(0));
    return GRAPH_SUCCESS;
}
static graphStatus TinyConvNetInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class TinyConvNetForward : public OpDef {
public:
    explicit TinyConvNetForward(const char *name) : OpDef(name)
    {
        const char *inputs[] = {"x", "conv1_weight", "conv1_bias", "conv2_weight", "conv2_bias",
                                "fc1_weight", "fc1_bias", "fc2_weight", "fc2_bias", "fc3_weight", "fc3_bias"};
        for (const char *nm : inputs) {
            this->Input(nm)
                .ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT})
                .Format({ge::FORMAT_ND})
                .UnknownShapeFormat({ge::FORMAT_ND});
        }
        this->Output("logits")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::TinyConvNetInferShape).SetInferDataType(ge::TinyConvNetInferDtype);
        this->AICore().SetTiling(optiling::TinyConvNetTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(TinyConvNetForward);
} // namespace ops
