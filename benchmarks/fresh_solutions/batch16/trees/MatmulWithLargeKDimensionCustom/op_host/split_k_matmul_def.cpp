#include "split_k_matmul_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus SplitKMatmulTilingFunc(gert::TilingContext *context);
}

namespace ge {
static graphStatus SplitKMatmulInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *a = ctx->GetInputShape(0);
    const gert::Shape *b = ctx->GetInputShape(1);
    gert::Shape *c = ctx->GetOutputShape(0);
    c->SetDimNum(2);
    c->SetDim(0, a->GetDim(0));
    c->SetDim(1, b->GetDim(1));
    return GRAPH_SUCCESS;
}

static graphStatus SplitKMatmulInferType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
// Plain 2-D matmul c = a @ b, tuned for a long reduction dimension.
class SplitKMatmul : public OpDef {
public:
    explicit SplitKMatmul(const char *name) : OpDef(name)
    {
        this->Input("a")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("b")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("c")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::SplitKMatmulInferShape).SetInferDataType(ge::SplitKMatmulInferType);
        this->AICore().SetTiling(optiling::SplitKMatmulTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(SplitKMatmul);
} // namespace ops
