#include "query_context_attention_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus QcaInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *q = ctx->GetInputShape(0);
    const gert::Shape *wq = ctx->GetInputShape(2);
    gert::Shape *out = ctx->GetOutputShape(0);
    out->SetDimNum(3);
    out->SetDim(0, q->GetDim(0));
    out->SetDim(1, q->GetDim(1));
    out->SetDim(2, wq->GetDim(0));
    return GRAPH_SUCCESS;
}
static graphStatus QcaInferDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class QueryContextAttention : public OpDef {
public:
    explicit QueryContextAttention(const char *name) : OpDef(name)
    {
        // activations, then (weight, bias) pairs in the order they are applied
        const char *names[] = {"query", "context",
                               "query_weight", "query_bias",
                               "context_weight", "context_bias",
                               "in_proj_weight", "in_proj_bias",
                               "out_proj_weight", "out_proj_bias"};
        for (const char *nm : names) {
            this->Input(nm)
                .ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT})
                .Format({ge::FORMAT_ND})
                .UnknownShapeFormat({ge::FORMAT_ND});
        }
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("num_heads").AttrType(REQUIRED).Int();

        this->SetInferShape(ge::QcaInferShape).SetInferDataType(ge::QcaInferDtype);
        this->AICore().SetTiling(optiling::QueryContextAttentionTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(QueryContextAttention);
}
