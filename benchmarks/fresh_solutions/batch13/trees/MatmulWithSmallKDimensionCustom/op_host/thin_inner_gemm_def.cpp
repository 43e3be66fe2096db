#include "thin_inner_gemm_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus ThinInnerGemmInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *a = ctx->GetInputShape(0);
    const gert::Shape *b = ctx->GetInputShape(1);
    gert::Shape *c = ctx->GetOutputShape(0);
    c->SetDimNum(2);
    c->SetDim(0, a->GetDim(0));
    c->SetDim(1, b->GetDim(1));
    return GRAPH_SUCCESS;
}

static graphStatus ThinInnerGemmInferDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class ThinInnerGemm : public OpDef {
public:
    explicit ThinInnerGemm(const char *name) : OpDef(name)
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

        this->SetInferShape(ge::ThinInnerGemmInferShape).SetInferDataType(ge::ThinInnerGemmInferDtype);
        this->AICore().SetTiling(optiling::ThinInnerGemmTiling).AddConfig("ascend910b");
    }
};
OP_ADD(ThinInnerGemm);
}
