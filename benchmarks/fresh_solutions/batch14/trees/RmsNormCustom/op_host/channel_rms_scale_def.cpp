#include "channel_rms_scale_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus ChannelRmsScaleInferShape(gert::InferShapeContext *context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}

static graphStatus ChannelRmsScaleInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class ChannelRmsScale : public OpDef {
public:
    explicit ChannelRmsScale(const char *name) : OpDef(name)
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
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-5f);
        this->Attr("axis").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::ChannelRmsScaleInferShape).SetInferDataType(ge::ChannelRmsScaleInferDtype);
        this->AICore().SetTiling(optiling::ChannelRmsScaleTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ChannelRmsScale);
} // namespace ops
