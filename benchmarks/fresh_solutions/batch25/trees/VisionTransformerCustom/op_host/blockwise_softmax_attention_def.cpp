#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus BlockwiseSoftmaxAttentionTilingFunc(gert::TilingContext *context);
}

namespace ge {
static graphStatus AttnInferShape(gert::InferShapeContext *context)
{
    // (B, Hn, Sq, D) -> (B, Hn, Sq, D)
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static graphStatus AttnInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class BlockwiseSoftmaxAttention : public OpDef {
public:
    explicit BlockwiseSoftmaxAttention(const char *name) : OpDef(name)
    {
        this->Input("query").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("key").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("value").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("attn_out").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        // <= 0 means 1/sqrt(head_dim)
        this->Attr("scale").AttrType(OPTIONAL).Float(0.0f);

        this->SetInferShape(ge::AttnInferShape).SetInferDataType(ge::AttnInferDtype);
        this->AICore().SetTiling(optiling::BlockwiseSoftmaxAttentionTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(BlockwiseSoftmaxAttention);
}  // namespace ops
