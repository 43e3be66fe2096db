#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus ChannelMixConv1x1TilingFunc(gert::TilingContext *context);
}

namespace ge {
static graphStatus ChannelMixConv1x1InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    gert::Shape *y = context->GetOutputShape(0);
    *y = *x;
    y->SetDim(1, w->GetDim(0));
    return GRAPH_SUCCESS;
}

static graphStatus ChannelMixConv1x1InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class ChannelMixConv1x1 : public OpDef {
public:
    explicit ChannelMixConv1x1(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("filter")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("bias")
            .ParamType(OPTIONAL)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::ChannelMixConv1x1InferShape).SetInferDataType(ge::ChannelMixConv1x1InferDataType);
        this->AICore().SetTiling(optiling::ChannelMixConv1x1TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ChannelMixConv1x1);
}
