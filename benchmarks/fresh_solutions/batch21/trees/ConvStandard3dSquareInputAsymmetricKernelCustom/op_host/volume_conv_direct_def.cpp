#include "volume_conv_direct_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static int64_t Pick(const gert::ContinuousVector *v, size_t i, int64_t dflt)
{
    if (v == nullptr || v->GetSize() == 0) return dflt;
    const int64_t *d = static_cast<const int64_t *>(v->GetData());
    return v->GetSize() == 1 ? d[0] : d[i];
}

static graphStatus VolumeConvDirectInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *f = ctx->GetInputShape(1);
    auto attrs = ctx->GetAttrs();
    auto st = attrs->GetAttrPointer<gert::ContinuousVector>(0);
    auto pd = attrs->GetAttrPointer<gert::ContinuousVector>(1);
    auto dl = attrs->GetAttrPointer<gert::ContinuousVector>(2);
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(5);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, f->GetDim(0));
    for (size_t i = 0; i < 3; ++i) {
        int64_t in = x->GetDim(2 + i), k = f->GetDim(2 + i);
        int64_t o = (in + 2 * Pick(pd, i, 0) - Pick(dl, i, 1) * (k - 1) - 1) / Pick(st, i, 1) + 1;
        y->SetDim(2 + i, o);
    }
    return GRAPH_SUCCESS;
}
static graphStatus VolumeConvDirectInferDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class VolumeConvDirect : public OpDef {
public:
    explicit VolumeConvDirect(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_NCDHW});
        this->Input("filter").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_NCDHW});
        this->Input("bias").ParamType(OPTIONAL).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_NCDHW});
        this->Attr("strides").AttrType(OPTIONAL).ListInt({1, 1, 1});
        this->Attr("pads").AttrType(OPTIONAL).ListInt({0, 0, 0});
        this->Attr("dilations").AttrType(OPTIONAL).ListInt({1, 1, 1});
        this->Attr("groups").AttrType(OPTIONAL).Int(1);
        this->SetInferShape(ge::VolumeConvDirectInferShape).SetInferDataType(ge::VolumeConvDirectInferDtype);
        this->AICore().SetTiling(optiling::VolumeConvDirectTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(VolumeConvDirect);
}
