#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus MemoryAttentionTilingFunc(gert::TilingContext *ctx);
}

namespace ge {
static graphStatus MemoryAttentionShape(gert::InferShapeContext *ctx)
{
    // output follows the query: [B, Lq, E]
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static graphStatus MemoryAttentionDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class MemoryAttention : public OpDef {
public:
    explicit MemoryAttention(const char *name) : OpDef(name)
    {
        const char *ins[] = {"query", "memory", "in_proj_weight", "in_proj_bias", "out_proj_weight",
                             "out_proj_bias"};
        for (const char *n : ins) {
            this->Input(n)
                .ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT})
                .Format({ge::FORMAT_ND})
                .UnknownShapeFormat({ge::FORMAT_ND});
        }
        this->Output("out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("num_heads").AttrType(REQUIRED).Int();

        this->SetInferShape(ge::MemoryAttentionShape).SetInferDataType(ge::MemoryAttentionDtype);
        this->AICore().SetTiling(optiling::MemoryAttentionTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MemoryAttention);
}
