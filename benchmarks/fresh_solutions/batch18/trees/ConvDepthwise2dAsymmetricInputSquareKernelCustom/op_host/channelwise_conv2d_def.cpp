#include "channelwise_conv2d_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus ChannelwiseConv2dInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *w = ctx->GetInputShape(1);
    const auto *attrs = ctx->GetAttrs();
    int64_t s = *attrs->GetAttrPointer<int64_t>(0);
    int64_t p = *attrs->GetAttrPointer<int64_t>(1);
    int64_t k = w->GetDim(2);
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    y->SetDim(2, (x->GetDim(2) + 2 * p - k) / s + 1);
    y->SetDim(3, (x->GetDim(3) + 2 * p - k) / s + 1);
    return GRAPH_SUCCESS;
}

static graphStatus ChannelwiseConv2dInferDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class ChannelwiseConv2d : public OpDef {
public:
    explicit ChannelwiseConv2d(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW})
            .UnknownShapeFormat({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        this->Input("filter")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW})
            .UnknownShapeFormat({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW})
            .UnknownShapeFormat({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("padding").AttrType(OPTIONAL).Int(0);

        this->SetInferShape(ge::ChannelwiseConv2dInferShape).SetInferDataType(ge::ChannelwiseConv2dInferDtype);
        this->AICore().SetTiling(optiling::ChannelwiseConv2dTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ChannelwiseConv2d);
} // namespace ops
