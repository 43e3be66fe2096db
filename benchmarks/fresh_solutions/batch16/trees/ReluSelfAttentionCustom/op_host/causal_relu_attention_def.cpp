// OpDef: CausalReluAttention
//   x      [B, T, C]
//   weight [3C, C]   fused q/k/v projection (Linear layout: out x in)
//   bias   [3C]
//   y      [B, T, C]
//   attr num_heads
#include "causal_relu_attention_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus CausalReluAttentionTilingFunc(gert::TilingContext *context);
}

namespace ge {
static graphStatus CausalReluAttentionShape(gert::InferShapeContext *context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static graphStatus CausalReluAttentionDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class CausalReluAttention : public OpDef {
public:
    explicit CausalReluAttention(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("num_heads").AttrType(REQUIRED).Int();

        this->SetInferShape(ge::CausalReluAttentionShape).SetInferDataType(ge::CausalReluAttentionDtype);
        this->AICore().SetTiling(optiling::CausalReluAttentionTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(CausalReluAttention);
} // namespace ops
