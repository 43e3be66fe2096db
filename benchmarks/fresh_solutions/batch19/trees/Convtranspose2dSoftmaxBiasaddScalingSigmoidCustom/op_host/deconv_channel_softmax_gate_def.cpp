/*
 * DeconvChannelSoftmaxGate
 *   y = sigmoid(scale * (softmax_c(conv_transpose2d(x, weight) + conv_bias) + channel_bias))
 */
#include "deconv_channel_softmax_gate_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus DeconvGateInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *w = ctx->GetInputShape(1);
    gert::Shape *y = ctx->GetOutputShape(0);
    const auto *attrs = ctx->GetAttrs();
    auto pick = [](const gert::ContinuousVector *v, size_t i, int64_t d) -> int64_t {
        return (v != nullptr && v->GetSize() > i) ? reinterpret_cast<const int64_t *>(v->GetData())[i] : d;
    };
    const auto *s = attrs->GetListInt(0);
    const auto *p = attrs->GetListInt(1);
    const auto *op = attrs->GetListInt(2);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1));
    y->SetDim(2, (x->GetDim(2) - 1) * pick(s, 0, 1) - 2 * pick(p, 0, 0) + w->GetDim(2) + pick(op, 0, 0));
    y->SetDim(3, (x->GetDim(3) - 1) * pick(s, 1, 1) - 2 * pick(p, 1, 0) + w->GetDim(3) + pick(op, 1, 0));
    return GRAPH_SUCCESS;
}

static graphStatus DeconvGateInferType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class DeconvChannelSoftmaxGate : public OpDef {
public:
    explicit DeconvChannelSoftmaxGate(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("conv_bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("channel_bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});

        this->Attr("strides").AttrType(OPTIONAL).ListInt({1, 1});
        this->Attr("pads").AttrType(OPTIONAL).ListInt({0, 0});
        this->Attr("output_padding").AttrType(OPTIONAL).ListInt({0, 0});
        this->Attr("scale").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::DeconvGateInferShape).SetInferDataType(ge::DeconvGateInferType);
        this->AICore().SetTiling(optiling::DeconvChannelSoftmaxGateTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(DeconvChannelSoftmaxGate);
}  // namespace ops
