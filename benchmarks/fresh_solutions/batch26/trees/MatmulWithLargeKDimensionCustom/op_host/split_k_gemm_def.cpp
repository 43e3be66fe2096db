#include "split_k_gemm_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus GemmShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *a = ctx->GetInputShape(0);
    const gert::Shape *b = ctx->GetInputShape(1);
    gert::Shape *c = ctx->GetOutputShape(0);
    c->SetDimNum(2);
    c->SetDim(0, a->GetDim(0));
    c->SetDim(1, b->GetDim(1));
    return GRAPH_SUCCESS;
}
static graphStatus GemmType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class SplitKGemm : public OpDef {
public:
    explicit SplitKGemm(const char *name) : OpDef(name)
    {
        this->Input("a").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("c").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::GemmShape).SetInferDataType(ge::GemmType);
        this->AICore().SetTiling(optiling::SplitKGemmTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(SplitKGemm);
}
