#include "relu_feature_map_attention_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus InferShapeReluFmAttn(gert::InferShapeContext *ctx)
{
    const gert::Shape *q = ctx->GetInputShape(0);
    const gert::Shape *v = ctx->GetInputShape(2);
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(3);
    y->SetDim(0, q->GetDim(0));
    y->SetDim(1, q->GetDim(1));
    y->SetDim(2, v->GetDim(2));
    return GRAPH_SUCCESS;
}

static graphStatus InferDtypeReluFmAttn(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class ReluFeatureMapAttention : public OpDef {
public:
    explicit ReluFeatureMapAttention(const char *name) : OpDef(name)
    {
        this->Input("query").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("key").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("value").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-6f);

        this->SetInferShape(ge::InferShapeReluFmAttn).SetInferDataType(ge::InferDtypeReluFmAttn);
        this->AICore().SetTiling(optiling::ReluFeatureMapAttentionTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ReluFeatureMapAttention);
}  // namespace ops
