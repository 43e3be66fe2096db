#include "register/op_def_registry.h"

namespace optiling {
extern ge::graphStatus LinearScaledBatchNormTiling(gert::TilingContext *context);
}

namespace ge {
static graphStatus LinearScaledBatchNormInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    gert::Shape *y = context->GetOutputShape(0);
    y->SetDimNum(2);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    return GRAPH_SUCCESS;
}

static graphStatus LinearScaledBatchNormInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class LinearScaledBatchNorm : public OpDef {
public:
    explicit LinearScaledBatchNorm(const char *name) : OpDef(name)
    {
        // x: [M, K]; weight: [N, K]; bias/scale/gamma/beta: [N]
        const char *inputs[] = {"x", "weight", "bias", "scale", "gamma", "beta"};
        for (const char *in : inputs) {
            this->Input(in)
                .ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT})
                .Format({ge::FORMAT_ND})
                .UnknownShapeFormat({ge::FORMAT_ND});
        }
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::LinearScaledBatchNormInferShape)
            .SetInferDataType(ge::LinearScaledBatchNormInferDtype);
        this->AICore().SetTiling(optiling::LinearScaledBatchNormTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(LinearScaledBatchNorm);
}  // namespace ops
