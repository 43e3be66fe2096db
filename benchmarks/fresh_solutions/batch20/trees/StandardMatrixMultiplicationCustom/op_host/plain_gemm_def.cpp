#include "plain_gemm_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus PlainGemmInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *a = ctx->GetInputShape(0);
    const gert::Shape *b = ctx->GetInputShape(1);
    const bool ta = *ctx->GetAttrs()->GetAttrPointer<bool>(0);
    const bool tb = *ctx->GetAttrs()->GetAttrPointer<bool>(1);
    gert::Shape *c = ctx->GetOutputShape(0);
    c->SetDimNum(2);
    c->SetDim(0, ta ? a->GetDim(1) : a->GetDim(0));
    c->SetDim(1, tb ? b->GetDim(0) : b->GetDim(1));
    return GRAPH_SUCCESS;
}
static graphStatus PlainGemmInferDataType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class PlainGemm : public OpDef {
public:
    explicit PlainGemm(const char *name) : OpDef(name)
    {
        this->Input("a")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("b")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("c")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("transpose_a").AttrType(OPTIONAL).Bool(false);
        this->Attr("transpose_b").AttrType(OPTIONAL).Bool(false);

        this->SetInferShape(ge::PlainGemmInferShape).SetInferDataType(ge::PlainGemmInferDataType);
        this->AICore().SetTiling(optiling::PlainGemmTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(PlainGemm);
} // namespace ops
