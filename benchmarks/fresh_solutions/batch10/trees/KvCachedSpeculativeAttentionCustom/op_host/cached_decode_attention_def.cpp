#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus CachedDecodeAttentionTilingFunc(gert::TilingContext *ctx);
}

namespace ge {
static graphStatus CachedDecodeAttentionShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *q = ctx->GetInputShape(0);
    const gert::Shape *v = ctx->GetInputShape(2);
    gert::Shape *out = ctx->GetOutputShape(0);
    out->SetDimNum(3);
    out->SetDim(0, q->GetDim(0));
    out->SetDim(1, q->GetDim(1));
    out->SetDim(2, v->GetDim(2));
    return GRAPH_SUCCESS;
}

static graphStatus CachedDecodeAttentionDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class CachedDecodeAttention : public OpDef {
public:
    explicit CachedDecodeAttention(const char *name) : OpDef(name)
    {
        this->Input("query").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("key_cache").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("value_cache").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("attn_out").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        // scale <= 0 means "use 1/sqrt(head_dim)"
        this->Attr("scale").AttrType(OPTIONAL).Float(0.0f);

        this->SetInferShape(ge::CachedDecodeAttentionShape).SetInferDataType(ge::CachedDecodeAttentionDtype);
        this->AICore().SetTiling(optiling::CachedDecodeAttentionTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(CachedDecodeAttention);
}  // namespace ops
