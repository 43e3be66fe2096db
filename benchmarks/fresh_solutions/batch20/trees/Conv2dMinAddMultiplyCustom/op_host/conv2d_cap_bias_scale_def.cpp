#include "conv2d_cap_bias_scale_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus InferShapeConv2dCapBiasScale(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    int64_t pad = *context->GetAttrs()->GetAttrPointer<int64_t>(0);
    gert::Shape *y = context->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    y->SetDim(2, x->GetDim(2) + 2 * pad - w->GetDim(2) + 1);
    y->SetDim(3, x->GetDim(3) + 2 * pad - w->GetDim(3) + 1);
    return GRAPH_SUCCESS;
}
static graphStatus InferDtypeConv2dCapBiasScale(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
// y = (min(conv2d(x, weight) + conv_bias, cap) + channel_bias) * scale
class Conv2dCapBiasScale : public OpDef {
public:
    explicit Conv2dCapBiasScale(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        this->Input("weight").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        this->Input("conv_bias").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("channel_bias").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        this->Attr("padding").AttrType(OPTIONAL).Int(0);
        this->Attr("cap").AttrType(REQUIRED).Float();
        this->Attr("scale").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::InferShapeConv2dCapBiasScale).SetInferDataType(ge::InferDtypeConv2dCapBiasScale);
        this->AICore().SetTiling(optiling::Conv2dCapBiasScaleTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Conv2dCapBiasScale);
} // namespace ops
