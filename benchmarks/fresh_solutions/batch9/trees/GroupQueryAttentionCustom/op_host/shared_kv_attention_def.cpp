#include "register/op_def_registry.h"

namespace ops {
ge::graphStatus SharedKvAttentionTilingEntry(gert::TilingContext *context);

static ge::graphStatus SharedKvAttentionInferShape(gert::InferShapeContext *context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return ge::GRAPH_SUCCESS;
}

static ge::graphStatus SharedKvAttentionInferType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}

class SharedKvAttention : public OpDef {
public:
    explicit SharedKvAttention(const char *name) : OpDef(name)
    {
        AddFloatInput("x");
        AddFloatInput("q_weight");
        AddFloatInput("q_bias");
        AddFloatInput("k_weight");
        AddFloatInput("k_bias");
        AddFloatInput("v_weight");
        AddFloatInput("v_bias");
        AddFloatInput("o_weight");
        AddFloatInput("o_bias");
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("num_heads").AttrType(REQUIRED).Int();
        this->Attr("num_kv_heads").AttrType(REQUIRED).Int();

        this->SetInferShape(SharedKvAttentionInferShape).SetInferDataType(SharedKvAttentionInferType);
        this->AICore().SetTiling(SharedKvAttentionTilingEntry);
        this->AICore().AddConfig("ascend910b");
    }

private:
    void AddFloatInput(const char *name)
    {
        this->Input(name)
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
    }
};

OP_ADD(SharedKvAttention);
} // namespace ops
