#include "strided_upconv2d_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static int64_t PairAt(const gert::RuntimeAttrs *attrs, size_t idx, size_t pos)
{
    auto v = attrs->GetAttrPointer<gert::ContinuousVector>(idx);
    auto d = static_cast<const int64_t *>(v->GetData());
    return v->GetSize() > pos ? d[pos] : d[0];
}

static graphStatus StridedUpconv2dInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *w = ctx->GetInputShape(1);
    const gert::RuntimeAttrs *attrs = ctx->GetAttrs();
    const int64_t groups = *attrs->GetAttrPointer<int64_t>(3);
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1) * groups);
    for (size_t a = 0; a < 2; ++a) {
        int64_t s = PairAt(attrs, 0, a), p = PairAt(attrs, 1, a), op = PairAt(attrs, 2, a);
        y->SetDim(2 + a, (x->GetDim(2 + a) - 1) * s - 2 * p + w->GetDim(2 + a) + op);
    }
    return GRAPH_SUCCESS;
}

static graphStatus StridedUpconv2dInferDataType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class StridedUpconv2d : public OpDef {
public:
    explicit StridedUpconv2d(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        this->Input("filter")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        this->Input("bias")
            .ParamType(OPTIONAL)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW});

        this->Attr("strides").AttrType(OPTIONAL).ListInt({1, 1});
        this->Attr("pads").AttrType(OPTIONAL).ListInt({0, 0});
        this->Attr("output_padding").AttrType(OPTIONAL).ListInt({0, 0});
        this->Attr("groups").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::StridedUpconv2dInferShape).SetInferDataType(ge::StridedUpconv2dInferDataType);
        this->AICore().SetTiling(optiling::StridedUpconv2dTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(StridedUpconv2d);
} // namespace ops
