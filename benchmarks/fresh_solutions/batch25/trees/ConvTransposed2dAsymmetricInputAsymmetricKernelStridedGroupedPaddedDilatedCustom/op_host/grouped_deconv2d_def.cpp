#include "grouped_deconv2d_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus GroupedDeconv2dTilingFunc(gert::TilingContext *ctx);
}

namespace ge {
static int64_t ListAt(const gert::ContinuousVector *v, size_t i, int64_t def)
{
    if (v == nullptr || v->GetSize() == 0) {
        return def;
    }
    auto d = static_cast<const int64_t *>(v->GetData());
    return d[v->GetSize() > i ? i : 0];
}

static graphStatus GroupedDeconv2dInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *w = ctx->GetInputShape(1);
    auto attrs = ctx->GetAttrs();
    auto st = attrs->GetAttrPointer<gert::ContinuousVector>(0);
    auto pd = attrs->GetAttrPointer<gert::ContinuousVector>(1);
    auto dl = attrs->GetAttrPointer<gert::ContinuousVector>(2);
    int64_t groups = *attrs->GetAttrPointer<int64_t>(3);
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1) * groups);
    y->SetDim(2, (x->GetDim(2) - 1) * ListAt(st, 0, 1) - 2 * ListAt(pd, 0, 0) + ListAt(dl, 0, 1) * (w->GetDim(2) - 1) + 1);
    y->SetDim(3, (x->GetDim(3) - 1) * ListAt(st, 1, 1) - 2 * ListAt(pd, 1, 0) + ListAt(dl, 1, 1) * (w->GetDim(3) - 1) + 1);
    return GRAPH_SUCCESS;
}

static graphStatus GroupedDeconv2dInferDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class GroupedDeconv2d : public OpDef {
public:
    explicit GroupedDeconv2d(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        this->Input("weight").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        this->Attr("strides").AttrType(OPTIONAL).ListInt({1, 1});
        this->Attr("pads").AttrType(OPTIONAL).ListInt({0, 0});
        this->Attr("dilations").AttrType(OPTIONAL).ListInt({1, 1});
        this->Attr("groups").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::GroupedDeconv2dInferShape).SetInferDataType(ge::GroupedDeconv2dInferDtype);
        this->AICore().SetTiling(optiling::GroupedDeconv2dTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(GroupedDeconv2d);
}  // namespace ops
