#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus Deconv3dSoftmaxSigmoidTilingFunc(gert::TilingContext *context);
}

namespace ge {
static int64_t ListAt(const gert::ContinuousVector *v, size_t i, int64_t dflt)
{
    if (v == nullptr || v->GetSize() == 0) {
        return dflt;
    }
    const int64_t *p = static_cast<const int64_t *>(v->GetData());
    return v->GetSize() == 1 ? p[0] : p[i];
}

static graphStatus Deconv3dSoftmaxSigmoidInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    auto attrs = context->GetAttrs();
    auto st = attrs->GetAttrPointer<gert::ContinuousVector>(0);
    auto pd = attrs->GetAttrPointer<gert::ContinuousVector>(1);
    auto op = attrs->GetAttrPointer<gert::ContinuousVector>(2);
    gert::Shape *y = context->GetOutputShape(0);
    y->SetDimNum(5);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1));
    for (size_t i = 0; i < 3; ++i) {
        int64_t in = x->GetDim(2 + i);
        int64_t k = w->GetDim(2 + i);
        y->SetDim(2 + i, (in - 1) * ListAt(st, i, 1) - 2 * ListAt(pd, i, 0) + k + ListAt(op, i, 0));
    }
    return GRAPH_SUCCESS;
}

static graphStatus Deconv3dSoftmaxSigmoidInferType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class Deconv3dChannelSoftmaxSigmoid : public OpDef {
public:
    explicit Deconv3dChannelSoftmaxSigmoid(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("strides").AttrType(OPTIONAL).ListInt({1, 1, 1});
        this->Attr("pads").AttrType(OPTIONAL).ListInt({0, 0, 0});
        this->Attr("output_padding").AttrType(OPTIONAL).ListInt({0, 0, 0});

        this->SetInferShape(ge::Deconv3dSoftmaxSigmoidInferShape)
            .SetInferDataType(ge::Deconv3dSoftmaxSigmoidInferType);
        this->AICore().SetTiling(optiling::Deconv3dSoftmaxSigmoidTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Deconv3dChannelSoftmaxSigmoid);
}  // namespace ops
