#include "dense_conv3d_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
namespace {
int64_t Pick(const gert::TypedContinuousVector<int64_t> *v, size_t i, int64_t dflt)
{
    if (v == nullptr || v->GetSize() == 0) {
        return dflt;
    }
    return v->GetSize() == 1 ? v->GetData()[0] : v->GetData()[i];
}
}  // namespace

static graphStatus DenseConv3dInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *w = ctx->GetInputShape(1);
    gert::Shape *y = ctx->GetOutputShape(0);
    if (x == nullptr || w == nullptr || y == nullptr || x->GetDimNum() != 5 || w->GetDimNum() != 5) {
        return GRAPH_FAILED;
    }
    const gert::RuntimeAttrs *attrs = ctx->GetAttrs();
    auto st = attrs->GetListInt(0);
    auto pd = attrs->GetListInt(1);
    auto dl = attrs->GetListInt(2);
    y->SetDimNum(5);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    for (size_t i = 0; i < 3; ++i) {
        int64_t in = x->GetDim(2 + i);
        int64_t k = w->GetDim(2 + i);
        int64_t s = Pick(st, i, 1);
        int64_t p = Pick(pd, i, 0);
        int64_t d = Pick(dl, i, 1);
        y->SetDim(2 + i, (in + 2 * p - d * (k - 1) - 1) / s + 1);
    }
    return GRAPH_SUCCESS;
}

static graphStatus DenseConv3dInferDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class DenseConv3d : public OpDef {
public:
    explicit DenseConv3d(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_NCDHW})
            .UnknownShapeFormat({ge::FORMAT_NCDHW});
        this->Input("filter")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_NCDHW})
            .UnknownShapeFormat({ge::FORMAT_NCDHW});
        this->Input("bias")
            .ParamType(OPTIONAL)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_NCDHW})
            .UnknownShapeFormat({ge::FORMAT_NCDHW});
        this->Attr("strides").AttrType(OPTIONAL).ListInt({1, 1, 1});
        this->Attr("pads").AttrType(OPTIONAL).ListInt({0, 0, 0});
        this->Attr("dilations").AttrType(OPTIONAL).ListInt({1, 1, 1});

        this->SetInferShape(ge::DenseConv3dInferShape).SetInferDataType(ge::DenseConv3dInferDtype);
        this->AICore().SetTiling(optiling::DenseConv3dTiling);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(DenseConv3d);
}  // namespace ops
