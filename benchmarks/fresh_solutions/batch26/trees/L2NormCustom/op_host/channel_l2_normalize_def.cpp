#include "channel_l2_normalize_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus L2nShape(gert::InferShapeContext *ctx)
{
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static graphStatus L2nType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class ChannelL2Normalize : public OpDef {
public:
    explicit ChannelL2Normalize(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("axis").AttrType(OPTIONAL).Int(1);
        this->Attr("epsilon").AttrType(OPTIONAL).Float(0.0f);
        this->SetInferShape(ge::L2nShape).SetInferDataType(ge::L2nType);
        this->AICore().SetTiling(optiling::ChannelL2NormalizeTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ChannelL2Normalize);
}
