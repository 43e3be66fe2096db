#include "register/op_def_registry.h"
#include "causal_mha_block_tiling.h"

namespace optiling {
ge::graphStatus CausalMhaBlockTiling(gert::TilingContext *context);
}


namespace ge {
static graphStatus CausalMhaBlockInferShape(gert::InferShapeContext *context)
{
    // output keeps the [B, T, C] shape of x
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}

static graphStatus CausalMhaBlockInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class CausalMhaBlock : public OpDef {
public:
    explicit CausalMhaBlock(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("qkv_weight")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("qkv_bias")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("proj_weight")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("proj_bias")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("num_heads").Int();

        this->SetInferShape(ge::CausalMhaBlockInferShape).SetInferDataType(ge::CausalMhaBlockInferDtype);
        this->AICore().SetTiling(optiling::CausalMhaBlockTiling);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(CausalMhaBlock);
}  // namespace ops
