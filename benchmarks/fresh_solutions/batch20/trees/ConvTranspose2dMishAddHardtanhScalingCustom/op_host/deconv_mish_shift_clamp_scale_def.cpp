// OpDef: DeconvMishShiftClampScale
//   y = scale * clamp(mish(conv_transpose2d(x, weight) + bias) + add_value, clip_min, clip_max)
#include "deconv_mish_shift_clamp_scale_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus DeconvMishInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *w = ctx->GetInputShape(1);
    auto attrs = ctx->GetAttrs();
    const int64_t s = *attrs->GetAttrPointer<int64_t>(0);
    const int64_t p = *attrs->GetAttrPointer<int64_t>(1);
    const int64_t op = *attrs->GetAttrPointer<int64_t>(2);
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1));
    y->SetDim(2, (x->GetDim(2) - 1) * s - 2 * p + w->GetDim(2) + op);
    y->SetDim(3, (x->GetDim(3) - 1) * s - 2 * p + w->GetDim(3) + op);
    return GRAPH_SUCCESS;
}
static graphStatus DeconvMishInferType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class DeconvMishShiftClampScale : public OpDef {
public:
    explicit DeconvMishShiftClampScale(const char *name) : OpDef(name)
    {
        const std::vector<ge::DataType> types = {ge::DT_FLOAT, ge::DT_FLOAT16};
        const std::vector<ge::Format> nchw = {ge::FORMAT_NCHW, ge::FORMAT_NCHW};
        const std::vector<ge::Format> nd = {ge::FORMAT_ND, ge::FORMAT_ND};
        this->Input("x").ParamType(REQUIRED).DataType(types).Format(nchw).UnknownShapeFormat(nchw);
        this->Input("weight").ParamType(REQUIRED).DataType(types).Format(nchw).UnknownShapeFormat(nchw);
        this->Input("bias").ParamType(REQUIRED).DataType(types).Format(nd).UnknownShapeFormat(nd);
        this->Output("y").ParamType(REQUIRED).DataType(types).Format(nchw).UnknownShapeFormat(nchw);

        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("padding").AttrType(OPTIONAL).Int(0);
        this->Attr("output_padding").AttrType(OPTIONAL).Int(0);
        this->Attr("add_value").AttrType(OPTIONAL).Float(0.0f);
        this->Attr("scale").AttrType(OPTIONAL).Float(1.0f);
        this->Attr("clip_min").AttrType(OPTIONAL).Float(-1.0f);
        this->Attr("clip_max").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::DeconvMishInferShape).SetInferDataType(ge::DeconvMishInferType);
        this->AICore().SetTiling(optiling::DeconvMishShiftClampScaleTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(DeconvMishShiftClampScale);
} // namespace ops
