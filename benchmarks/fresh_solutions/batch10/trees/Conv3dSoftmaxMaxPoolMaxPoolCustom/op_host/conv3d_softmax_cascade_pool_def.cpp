#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus Conv3dSoftmaxCascadePoolTilingFunc(gert::TilingContext *context);
}

namespace ge {
static graphStatus Conv3dSoftmaxCascadePoolShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    const int64_t *p1 = attrs->GetAttrPointer<int64_t>(0);
    const int64_t *p2 = attrs->GetAttrPointer<int64_t>(1);
    int64_t a = p1 ? *p1 : 2;
    int64_t b = p2 ? *p2 : 2;
    gert::Shape *y = context->GetOutputShape(0);
    y->SetDimNum(5);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    for (size_t i = 2; i < 5; ++i) {
        int64_t conv = x->GetDim(i) - w->GetDim(i) + 1;
        y->SetDim(i, (conv / a) / b);
    }
    return GRAPH_SUCCESS;
}

static graphStatus Conv3dSoftmaxCascadePoolDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class Conv3dSoftmaxCascadePool : public OpDef {
public:
    explicit Conv3dSoftmaxCascadePool(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("filter").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("first_pool").AttrType(OPTIONAL).Int(2);
        this->Attr("second_pool").AttrType(OPTIONAL).Int(2);

        this->SetInferShape(ge::Conv3dSoftmaxCascadePoolShape).SetInferDataType(ge::Conv3dSoftmaxCascadePoolDtype);
        this->AICore().SetTiling(optiling::Conv3dSoftmaxCascadePoolTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Conv3dSoftmaxCascadePool);
}  // namespace ops
