#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus DeconvDepthPoolSoftmaxTilingFunc(gert::TilingContext *context);
}

namespace ge {
static graphStatus DeconvDepthPoolSoftmaxInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    int64_t pad = *context->GetAttrs()->GetAttrPointer<int64_t>(0);
    int64_t k = w->GetDim(2);
    gert::Shape *y = context->GetOutputShape(0);
    y->SetDimNum(5);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1));
    y->SetDim(2, 1);  // depth averaged away, kept as a unit axis
    y->SetDim(3, x->GetDim(3) + k - 1 - 2 * pad);
    y->SetDim(4, x->GetDim(4) + k - 1 - 2 * pad);
    return GRAPH_SUCCESS;
}

static graphStatus DeconvDepthPoolSoftmaxInferType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class DeconvDepthPoolSoftmax : public OpDef {
public:
    explicit DeconvDepthPoolSoftmax(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("conv_bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("channel_bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("padding").AttrType(OPTIONAL).Int(0);
        this->Attr("scale").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::DeconvDepthPoolSoftmaxInferShape)
            .SetInferDataType(ge::DeconvDepthPoolSoftmaxInferType);
        this->AICore().SetTiling(optiling::DeconvDepthPoolSoftmaxTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(DeconvDepthPoolSoftmax);
}
