#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus SigmoidMlpLseTiling(gert::TilingContext *context);
}

namespace ge {
// output: one value per row of x
static graphStatus SigmoidMlpLseShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    gert::Shape *y = context->GetOutputShape(0);
    y->SetDimNum(1);
    y->SetDim(0, x->GetDim(0));
    return GRAPH_SUCCESS;
}
static graphStatus SigmoidMlpLseType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class SigmoidMlpLogSumExp : public OpDef {
public:
    explicit SigmoidMlpLogSumExp(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("w1").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("b1").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("w2").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("b2").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});

        this->SetInferShape(ge::SigmoidMlpLseShape).SetInferDataType(ge::SigmoidMlpLseType);
        this->AICore().SetTiling(optiling::SigmoidMlpLseTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(SigmoidMlpLogSumExp);
}  // namespace ops
