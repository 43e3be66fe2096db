#include "channelwise_conv2d_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus ChannelwiseConv2dTilingFunc(gert::TilingContext* context);
}

namespace ge {
static int64_t PairAt(const gert::ContinuousVector* v, size_t i, int64_t dflt)
{
    if (v == nullptr || v->GetSize() == 0) {
        return dflt;
    }
    const int64_t* d = static_cast<const int64_t*>(v->GetData());
    return v->GetSize() == 1 ? d[0] : d[i];
}

static graphStatus ChannelwiseConv2dInferShape(gert::InferShapeContext* ctx)
{
    const gert::Shape* x = ctx->GetInputShape(0);
    const gert::Shape* w = ctx->GetInputShape(1);
    const gert::RuntimeAttrs* attrs = ctx->GetAttrs();
    const auto* strides = attrs->GetAttrPointer<gert::ContinuousVector>(0);
    const auto* pads = attrs->GetAttrPointer<gert::ContinuousVector>(1);
    const auto* dils = attrs->GetAttrPointer<gert::ContinuousVector>(2);
    gert::Shape* y = ctx->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, x->GetDim(1));
    for (size_t i = 0; i < 2; ++i) {
        int64_t in = x->GetDim(2 + i);
        int64_t k = w->GetDim(2 + i);
        int64_t s = PairAt(strides, i, 1), p = PairAt(pads, i, 0), d = PairAt(dils, i, 1);
        y->SetDim(2 + i, (in + 2 * p - d * (k - 1) - 1) / s + 1);
    }
    return GRAPH_SUCCESS;
}

static graphStatus ChannelwiseConv2dInferDtype(gert::InferDataTypeContext* ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class ChannelwiseConv2d : public OpDef {
public:
    explicit ChannelwiseConv2d(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("bias").ParamType(OPTIONAL).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        // (height, width) pairs; a single value applies to both
        this->Attr("strides").AttrType(OPTIONAL).ListInt({1, 1});
        this->Attr("pads").AttrType(OPTIONAL).ListInt({0, 0});
        this->Attr("dilations").AttrType(OPTIONAL).ListInt({1, 1});

        this->SetInferShape(ge::ChannelwiseConv2dInferShape).SetInferDataType(ge::ChannelwiseConv2dInferDtype);
        this->AICore().SetTiling(optiling::ChannelwiseConv2dTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ChannelwiseConv2d);
}  // namespace ops
