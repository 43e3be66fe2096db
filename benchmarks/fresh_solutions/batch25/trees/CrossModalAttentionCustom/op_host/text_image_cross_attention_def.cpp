#include "text_image_cross_attention_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus TextImageCrossAttentionTiling(gert::TilingContext *context);
}

namespace ge {
static graphStatus CrossAttnInferShape(gert::InferShapeContext *context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);  // [B, Lq, D]
    return GRAPH_SUCCESS;
}
static graphStatus CrossAttnInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class TextImageCrossAttention : public OpDef {
public:
    explicit TextImageCrossAttention(const char *name) : OpDef(name)
    {
        const char *ins[] = {"text", "image", "text_weight", "text_bias", "image_weight", "image_bias",
                             "in_proj_weight", "in_proj_bias", "out_weight", "out_bias"};
        for (const char *n : ins) {
            this->Input(n)
                .ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
                .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        }
        this->Output("out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("num_heads").Int();

        this->SetInferShape(ge::CrossAttnInferShape).SetInferDataType(ge::CrossAttnInferDtype);
        this->AICore().SetTiling(optiling::TextImageCrossAttentionTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(TextImageCrossAttention);
}  // namespace ops
