#include "channelwise_conv2d_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus ChannelwiseConv2dInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *w = ctx->GetInputShape(1);
    auto attrs = ctx->GetAttrs();
    const int64_t *s = static_cast<const int64_t *>(attrs->GetAttrPointer<gert::ContinuousVector>(0)->GetData());
    const int64_t *p = static_cast<const int64_t *>(attrs->GetAttrPointer<gert::ContinuousVector>(1)->GetData());
    const int64_t *d = static_cast<const int64_t *>(attrs->GetAttrPointer<gert::ContinuousVector>(2)->GetData());
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, x->GetDim(1));
    y->SetDim(2, (x->GetDim(2) + 2 * p[0] - d[0] * (w->GetDim(2) - 1) - 1) / s[0] + 1);
    y->SetDim(3, (x->GetDim(3) + 2 * p[1] - d[1] * (w->GetDim(3) - 1) - 1) / s[1] + 1);
    return GRAPH_SUCCESS;
}
static graphStatus ChannelwiseConv2dInferType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class ChannelwiseConv2d : public OpDef {
public:
    explicit ChannelwiseConv2d(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("filter").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("bias").ParamType(OPTIONAL)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("strides").AttrType(OPTIONAL).ListInt({1, 1});
        this->Attr("pads").AttrType(OPTIONAL).ListInt({0, 0});
        this->Attr("dilations").AttrType(OPTIONAL).ListInt({1, 1});

        this->SetInferShape(ge::ChannelwiseConv2dInferShape).SetInferDataType(ge::ChannelwiseConv2dInferType);
        this->AICore().SetTiling(optiling::ChannelwiseConv2dTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ChannelwiseConv2d);
}
