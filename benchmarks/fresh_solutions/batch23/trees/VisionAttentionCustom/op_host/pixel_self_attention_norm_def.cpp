#include "pixel_self_attention_norm_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus PixelSelfAttentionNormTiling(gert::TilingContext *context);
}

namespace ge {
static ge::graphStatus PsanShape(gert::InferShapeContext *ctx)
{
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus PsanType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class PixelSelfAttentionNorm : public OpDef {
public:
    explicit PixelSelfAttentionNorm(const char *name) : OpDef(name)
    {
        auto addIn = [this](const char *n) {
            this->Input(n).ParamType(REQUIRED).DataType({ge::DT_FLOAT})
                .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        };
        addIn("x");              // [B, C, H, W]
        addIn("in_proj_weight"); // [3C, C]
        addIn("in_proj_bias");   // [3C]
        addIn("out_proj_weight");// [C, C]
        addIn("out_proj_bias");  // [C]
        addIn("gamma");          // [C]
        addIn("beta");           // [C]
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("num_heads").Int();
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::PsanShape).SetInferDataType(ge::PsanType);
        this->AICore().SetTiling(optiling::PixelSelfAttentionNormTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(PixelSelfAttentionNorm);
}  // namespace ops
