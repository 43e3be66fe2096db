#include "sliding_window_self_attention_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus SlidingWindowSelfAttentionInferShape(gert::InferShapeContext *context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}

static graphStatus SlidingWindowSelfAttentionInferDtype(gert::InferDataTypeContext *context)
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
        auto addTensor = [this](const char *n) {
            this->Input(n)
                .ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT})
                .Format({ge::FORMAT_ND})
                .UnknownShapeFormat({ge::FORMAT_ND});
        };
        addTensor("x");          // [B, N, D]
        addTensor("q_weight");   // [D, D], (out, in)
        addTensor("q_bias");     // [D]
        addTensor("k_weight");
        addTensor("k_bias");
        addTensor("v_weight");
        addTensor("v_bias");
        addTensor("out_weight");
        addTensor("out_bias");
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->Attr("num_heads").Int();
        this->Attr("window_size").Int();

        this->SetInferShape(ge::SlidingWindowSelfAttentionInferShape)
            .SetInferDataType(ge::SlidingWindowSelfAttentionInferDtype);
        this->AICore().SetTiling(optiling::SlidingWindowSelfAttentionTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(SlidingWindowSelfAttention);
} // namespace ops
