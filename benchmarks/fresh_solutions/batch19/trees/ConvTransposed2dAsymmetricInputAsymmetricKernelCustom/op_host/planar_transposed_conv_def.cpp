#include "planar_transposed_conv_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
namespace {
int64_t Nth(const gert::ContinuousVector *v, size_t i, int64_t fallback)
{
    return (v == nullptr || i >= v->GetSize()) ? fallback : static_cast<const int64_t *>(v->GetData())[i];
}
}  // namespace

static graphStatus PlanarTransposedConvInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *w = ctx->GetInputShape(1);
    gert::Shape *y = ctx->GetOutputShape(0);
    auto attrs = ctx->GetAttrs();
    const auto *st = attrs->GetListInt(0);
    const auto *pd = attrs->GetListInt(1);
    const auto *op = attrs->GetListInt(2);
    const auto *dl = attrs->GetListInt(3);
    const int64_t *gp = attrs->GetAttrPointer<int64_t>(4);

    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1) * (gp ? *gp : 1));
    for (size_t i = 0; i < 2; ++i) {
        y->SetDim(2 + i, (x->GetDim(2 + i) - 1) * Nth(st, i, 1) - 2 * Nth(pd, i, 0) +
                             Nth(dl, i, 1) * (w->GetDim(2 + i) - 1) + 1 + Nth(op, i, 0));
    }
    return GRAPH_SUCCESS;
}

static graphStatus PlanarTransposedConvInferType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class PlanarTransposedConv : public OpDef {
public:
    explicit PlanarTransposedConv(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias").ParamType(OPTIONAL).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->Attr("strides").AttrType(OPTIONAL).ListInt({1, 1});
        this->Attr("pads").AttrType(OPTIONAL).ListInt({0, 0});
        this->Attr("output_padding").AttrType(OPTIONAL).ListInt({0, 0});
        this->Attr("dilations").AttrType(OPTIONAL).ListInt({1, 1});
        this->Attr("groups").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::PlanarTransposedConvInferShape)
            .SetInferDataType(ge::PlanarTransposedConvInferType);
        this->AICore().SetTiling(optiling::PlanarTransposedConvTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(PlanarTransposedConv);
}  // namespace ops
