// OpDef of TensorMatProduct: y[..., K] = x[..., L] @ w[L, K]
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus TensorMatProductTiling(gert::TilingContext *ctx);
}

namespace ge {
static graphStatus TensorMatProductInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *xs = ctx->GetInputShape(0);
    const gert::Shape *ws = ctx->GetInputShape(1);
    gert::Shape *ys = ctx->GetOutputShape(0);
    *ys = *xs;
    ys->SetDim(xs->GetDimNum() - 1, ws->GetDim(1));
    return GRAPH_SUCCESS;
}
static graphStatus TensorMatProductInferDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class TensorMatProduct : public OpDef {
public:
    explicit TensorMatProduct(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("w")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::TensorMatProductInferShape).SetInferDataType(ge::TensorMatProductInferDtype);
        this->AICore().SetTiling(optiling::TensorMatProductTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(TensorMatProduct);
}  // namespace ops
