#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus ReluFeatureLinearAttentionTiling(gert::TilingContext *context);
}

namespace ge {
static graphStatus InferShapeReluFeatureLinearAttention(gert::InferShapeContext *ctx)
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

static graphStatus InferDtypeReluFeatureLinearAttention(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class ReluFeatureLinearAttention : public OpDef {
public:
    explicit ReluFeatureLinearAttention(const char *name) : OpDef(name)
    {
        const char *ins[] = {"query", "key", "value"};
        for (const char *n : ins) {
            this->Input(n)
                .ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
                .Format({ge::FORMAT_ND, ge::FORMAT_ND})
                .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        }
        this->Output("out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-6f);

        this->SetInferShape(ge::InferShapeReluFeatureLinearAttention)
            .SetInferDataType(ge::InferDtypeReluFeatureLinearAttention);
        this->AICore().SetTiling(optiling::ReluFeatureLinearAttentionTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ReluFeatureLinearAttention);
} // namespace ops
