#include "sliding_window_self_attention_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus SwsaInferShape(gert::InferShapeContext *context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static graphStatus SwsaInferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class SlidingWindowSelfAttention : public OpDef {
public:
    explicit SlidingWindowSelfAttention(const char *name) : OpDef(name)
    {
        const char *ins[] = {"x", "q_weight", "q_bias", "k_weight", "k_bias",
                             "v_weight", "v_bias", "o_weight", "o_bias"};
        for (const char *in : ins) {
            this->Input(in)
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
        this->Attr("window_size").AttrType(REQUIRED).Int();

        this->SetInferShape(ge::SwsaInferShape).SetInferDataType(ge::SwsaInferDataType);
        this->AICore().SetTiling(optiling::SlidingWindowSelfAttentionTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(SlidingWindowSelfAttention);
} // namespace ops
