#include "depthwise_conv_bn_clip_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus InferShapeDwConvBnClip(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const auto *attrs = ctx->GetAttrs();
    const int64_t k = *attrs->GetAttrPointer<int64_t>(0);
    const int64_t s = *attrs->GetAttrPointer<int64_t>(1);
    const int64_t *padAttr = attrs->GetAttrPointer<int64_t>(2);
    const int64_t p = (padAttr == nullptr || *padAttr < 0) ? (k - 1) / 2 : *padAttr;
    gert::Shape *y = ctx->GetOutputShape(0);
    *y = *x;
    y->SetDim(2, (x->GetDim(2) + 2 * p - k) / s + 1);
    y->SetDim(3, (x->GetDim(3) + 2 * p - k) / s + 1);
    return GRAPH_SUCCESS;
}

static graphStatus InferTypeDwConvBnClip(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class DepthwiseConvBnClip : public OpDef {
public:
    explicit DepthwiseConvBnClip(const char *name) : OpDef(name)
    {
        const std::vector<ge::DataType> types = {ge::DT_FLOAT16, ge::DT_FLOAT};
        const std::vector<ge::Format> nchw = {ge::FORMAT_NCHW, ge::FORMAT_NCHW};
        const std::vector<ge::Format> nd = {ge::FORMAT_ND, ge::FORMAT_ND};
        this->Input("x").ParamType(REQUIRED).DataType(types).Format(nchw).UnknownShapeFormat(nchw);
        this->Input("filter").ParamType(REQUIRED).DataType(types).Format(nd).UnknownShapeFormat(nd);  // [C,1,K,K]
        this->Input("scale").ParamType(REQUIRED).DataType(types).Format(nd).UnknownShapeFormat(nd);   // [C]
        this->Input("shift").ParamType(REQUIRED).DataType(types).Format(nd).UnknownShapeFormat(nd);   // [C]
        this->Output("y").ParamType(REQUIRED).DataType(types).Format(nchw).UnknownShapeFormat(nchw);

        this->Attr("kernel_size").Int();
        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("padding").AttrType(OPTIONAL).Int(-1);       // -1: (kernel_size - 1) / 2
        this->Attr("clip_max").AttrType(OPTIONAL).Float(6.0f);

        this->SetInferShape(ge::InferShapeDwConvBnClip).SetInferDataType(ge::InferTypeDwConvBnClip);
        this->AICore().SetTiling(optiling::DepthwiseConvBnClipTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(DepthwiseConvBnClip);
} // namespace ops
