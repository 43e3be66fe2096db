#include "register/op_def_registry.h"
#include "narrow_k_matmul_tiling.h"

namespace optiling {
ge::graphStatus NarrowKMatmulTiling(gert::TilingContext *context);
}

namespace ge {
static graphStatus NarrowKInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *a = ctx->GetInputShape(0);
    const gert::Shape *b = ctx->GetInputShape(1);
    gert::Shape *c = ctx->GetOutputShape(0);
    c->SetDimNum(2);
    c->SetDim(0, a->GetDim(0));
    c->SetDim(1, b->GetDim(1));
    return GRAPH_SUCCESS;
}
static graphStatus NarrowKInferType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class NarrowKMatmul : public OpDef {
public:
    explicit NarrowKMatmul(const char *name) : OpDef(name)
    {
        this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("c").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::NarrowKInferShape).SetInferDataType(ge::NarrowKInferType);
        this->AICore().SetTiling(optiling::NarrowKMatmulTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(NarrowKMatmul);
}  // namespace ops
