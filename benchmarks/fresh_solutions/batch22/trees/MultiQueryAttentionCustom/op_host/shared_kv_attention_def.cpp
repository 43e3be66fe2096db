#include "register/op_def_registry.h"

namespace ops {
ge::graphStatus SharedKvAttentionTilingEntry(gert::TilingContext *context);

static ge::graphStatus InferShapeSharedKv(gert::InferShapeContext *context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return ge::GRAPH_SUCCESS;
}

static ge::graphStatus InferDtypeSharedKv(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}

class SharedKvAttention : public OpDef {
public:
    explicit SharedKvAttention(const char *name) : OpDef(name)
    {
        // x, then (weight, bias) for the query / key / value / output projections
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

        this->SetInferShape(InferShapeSharedKv).SetInferDataType(InferDtypeSharedKv);
        this->AICore().SetTiling(SharedKvAttentionTilingEntry);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(SharedKvAttention);
}  // namespace ops
