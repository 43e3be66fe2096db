#include "deconv2d_square_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus Deconv2dSquareTilingFunc(gert::TilingContext *ctx);
}

namespace ge {
static graphStatus Deconv2dSquareShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *w = ctx->GetInputShape(1);
    auto attrs = ctx->GetAttrs();
    int64_t s = *attrs->GetAttrPointer<int64_t>(0);
    int64_t p = *attrs->GetAttrPointer<int64_t>(1);
    int64_t op = *attrs->GetAttrPointer<int64_t>(2);
    int64_t g = *attrs->GetAttrPointer<int64_t>(3);
    int64_t k = w->GetDim(2);
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1) * g);
    y->SetDim(2, (x->GetDim(2) - 1) * s - 2 * p + k + op);
    y->SetDim(3, (x->GetDim(3) - 1) * s - 2 * p + k + op);
    return GRAPH_SUCCESS;
}

static graphStatus Deconv2dSquareDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class Deconv2dSquare : public OpDef {
public:
    explicit Deconv2dSquare(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        this->Input("filter").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        this->Input("bias").ParamType(OPTIONAL)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("pad").AttrType(OPTIONAL).Int(0);
        this->Attr("output_pad").AttrType(OPTIONAL).Int(0);
        this->Attr("groups").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::Deconv2dSquareShape).SetInferDataType(ge::Deconv2dSquareDtype);
        this->AICore().SetTiling(optiling::Deconv2dSquareTilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(Deconv2dSquare);
}  // namespace ops
