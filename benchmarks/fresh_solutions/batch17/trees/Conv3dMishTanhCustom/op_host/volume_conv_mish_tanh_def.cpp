#include "register/op_def_registry.h"
#include "volume_conv_mish_tanh_tiling.h"

namespace optiling {
ge::graphStatus VolumeConvMishTanhTiling(gert::TilingContext *ctx);
}

namespace ge {
static int64_t At(const gert::TypedContinuousVector<int64_t> *v, size_t i, int64_t d)
{
    if (v == nullptr || v->GetSize() == 0) {
        return d;
    }
    return v->GetSize() == 1 ? v->GetData()[0] : v->GetData()[i];
}

static graphStatus VcmtInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *w = ctx->GetInputShape(1);
    const auto *st = ctx->GetAttrs()->GetListInt(0);
    const auto *pd = ctx->GetAttrs()->GetListInt(1);
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(5);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    for (size_t i = 0; i < 3; ++i) {
        y->SetDim(2 + i, (x->GetDim(2 + i) + 2 * At(pd, i, 0) - w->GetDim(2 + i)) / At(st, i, 1) + 1);
    }
    return GRAPH_SUCCESS;
}
static graphStatus VcmtInferType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class VolumeConvMishTanh : public OpDef {
public:
    explicit VolumeConvMishTanh(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("strides").AttrType(OPTIONAL).ListInt({1, 1, 1});
        this->Attr("pads").AttrType(OPTIONAL).ListInt({0, 0, 0});
        this->SetInferShape(ge::VcmtInferShape).SetInferDataType(ge::VcmtInferType);
        this->AICore().SetTiling(optiling::VolumeConvMishTanhTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(VolumeConvMishTanh);
}  // namespace ops
