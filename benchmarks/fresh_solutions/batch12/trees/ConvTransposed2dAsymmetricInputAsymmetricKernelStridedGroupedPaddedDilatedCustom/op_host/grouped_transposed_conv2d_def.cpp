// GroupedTransposedConv2d: grouped 2-D transposed convolution with a rectangular kernel and
// per-axis stride / padding / dilation / output padding.
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus GroupedTransposedConv2dTilingFunc(gert::TilingContext *context);
}

namespace ge {
static int64_t PairAt(const gert::RuntimeAttrs *attrs, size_t i, size_t axis)
{
    const gert::ContinuousVector *v = attrs->GetAttrPointer<gert::ContinuousVector>(i);
    const int64_t *d = static_cast<const int64_t *>(v->GetData());
    return v->GetSize() > axis ? d[axis] : d[0];
}

static graphStatus GroupedTransposedConv2dInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *w = ctx->GetInputShape(1);
    const gert::RuntimeAttrs *attrs = ctx->GetAttrs();
    int64_t groups = *attrs->GetAttrPointer<int64_t>(4);
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1) * groups);
    for (size_t a = 0; a < 2; ++a) {
        int64_t in = x->GetDim(2 + a);
        int64_t k = w->GetDim(2 + a);
        int64_t out = (in - 1) * PairAt(attrs, 0, a) - 2 * PairAt(attrs, 1, a) +
                      PairAt(attrs, 2, a) * (k - 1) + PairAt(attrs, 3, a) + 1;
        y->SetDim(2 + a, out);
    }
    return GRAPH_SUCCESS;
}

static graphStatus GroupedTransposedConv2dInferDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class GroupedTransposedConv2d : public OpDef {
public:
    explicit GroupedTransposedConv2d(const char *name) : OpDef(name)
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
        this->Attr("dilations").AttrType(OPTIONAL).ListInt({1, 1});
        this->Attr("output_padding").AttrType(OPTIONAL).ListInt({0, 0});
        this->Attr("groups").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::GroupedTransposedConv2dInferShape)
            .SetInferDataType(ge::GroupedTransposedConv2dInferDtype);
        this->AICore().SetTiling(optiling::GroupedTransposedConv2dTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(GroupedTransposedConv2d);
}  // namespace ops
