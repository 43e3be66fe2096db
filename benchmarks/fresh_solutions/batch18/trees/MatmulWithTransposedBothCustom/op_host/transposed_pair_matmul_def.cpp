#include "transposed_pair_matmul_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus InferShapeTransposedPair(gert::InferShapeContext *ctx)
{
    const gert::Shape *a = ctx->GetInputShape(0);
    const gert::Shape *b = ctx->GetInputShape(1);
    gert::Shape *c = ctx->GetOutputShape(0);
    c->SetDimNum(2);
    c->SetDim(0, a->GetDim(1));
    c->SetDim(1, b->GetDim(0));
    return GRAPH_SUCCESS;
}

static graphStatus InferDtypeTransposedPair(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class TransposedPairMatmul : public OpDef {
public:
    explicit TransposedPairMatmul(const char *name) : OpDef(name)
    {
        this->Input("a")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("b")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("c")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShapeTransposedPair).SetInferDataType(ge::InferDtypeTransposedPair);
        this->AICore().SetTiling(optiling::TransposedPairMatmulTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(TransposedPairMatmul);
}
