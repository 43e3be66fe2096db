#include "dense_bn_scaled_softmax_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus DenseBnScaledSoftmaxInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    gert::Shape *y = context->GetOutputShape(0);
    y->SetDimNum(2);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    return GRAPH_SUCCESS;
}
static graphStatus DenseBnScaledSoftmaxInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class DenseBnScaledSoftmax : public OpDef {
public:
    explicit DenseBnScaledSoftmax(const char *name) : OpDef(name)
    {
        const char *inputs[] = {"x", "weight", "bias", "gamma", "beta", "scale"};
        for (const char *nm : inputs) {
            this->Input(nm).ParamType(REQUIRED).DataType({ge::DT_FLOAT})
                .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        }
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::DenseBnScaledSoftmaxInferShape)
            .SetInferDataType(ge::DenseBnScaledSoftmaxInferDtype);
        this->AICore().SetTiling(optiling::DenseBnScaledSoftmaxTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(DenseBnScaledSoftmax);
} // namespace ops
