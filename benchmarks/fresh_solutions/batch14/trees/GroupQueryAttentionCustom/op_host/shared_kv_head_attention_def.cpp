#include "shared_kv_head_attention_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus SharedKvHeadAttentionShape(gert::InferShapeContext *ctx)
{
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static graphStatus SharedKvHeadAttentionType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class SharedKvHeadAttention : public OpDef {
public:
    explicit SharedKvHeadAttention(const char *name) : OpDef(name)
    {
        // weights are [in_features, out_features]
        for (const char *n : {"x", "w_q", "b_q", "w_k", "b_k", "w_v", "b_v", "w_o", "b_o"}) {
            this->Input(n).ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
                .UnknownShapeFormat({ge::FORMAT_ND});
        }
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("num_heads").AttrType(REQUIRED).Int();
        this->Attr("num_kv_heads").AttrType(REQUIRED).Int();

        this->SetInferShape(ge::SharedKvHeadAttentionShape).SetInferDataType(ge::SharedKvHeadAttentionType);
        this->AICore().SetTiling(optiling::SharedKvHeadAttentionTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(SharedKvHeadAttention);
} // namespace ops
