#include "channel_l2_normalize_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus ChannelL2NormalizeTilingFunc(gert::TilingContext *context);
}

namespace ge {
static graphStatus ChannelL2NormalizeInferShape(gert::InferShapeContext *context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}

static graphStatus ChannelL2NormalizeInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class ChannelL2Normalize : public OpDef {
public:
    explicit ChannelL2Normalize(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::ChannelL2NormalizeInferShape)
            .SetInferDataType(ge::ChannelL2NormalizeInferDtype);
        this->AICore().SetTiling(optiling::ChannelL2NormalizeTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ChannelL2Normalize);
}  // namespace ops
