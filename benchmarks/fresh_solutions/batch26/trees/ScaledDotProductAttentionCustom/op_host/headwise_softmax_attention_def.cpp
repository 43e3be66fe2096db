#include "headwise_softmax_attention_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus AttnInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *q = ctx->GetInputShape(0);
    const gert::Shape *v = ctx->GetInputShape(2);
    gert::Shape *o = ctx->GetOutputShape(0);
    *o = *q;
    o->SetDim(q->GetDimNum() - 1, v->GetDim(v->GetDimNum() - 1));
    return GRAPH_SUCCESS;
}

static graphStatus AttnInferDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class HeadwiseSoftmaxAttention : public OpDef {
public:
    explicit HeadwiseSoftmaxAttention(const char *name) : OpDef(name)
    {
        this->Input("query").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("key").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("value").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("attention_out").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        // <= 0 means "use 1/sqrt(head_dim)"
        this->Attr("scale").AttrType(OPTIONAL).Float(0.0f);

        this->SetInferShape(ge::AttnInferShape).SetInferDataType(ge::AttnInferDtype);
        this->AICore().SetTiling(optiling::HeadwiseSoftmaxAttentionTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(HeadwiseSoftmaxAttention);
} // namespace ops
