#include "conv_channel_min_double_tanh_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus ConvChannelMinDoubleTanhShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    gert::Shape *y = context->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, 1);
    y->SetDim(2, x->GetDim(2) - w->GetDim(2) + 1);
    y->SetDim(3, x->GetDim(3) - w->GetDim(3) + 1);
    return GRAPH_SUCCESS;
}
static graphStatus ConvChannelMinDoubleTanhDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class ConvChannelMinDoubleTanh : public OpDef {
public:
    explicit ConvChannelMinDoubleTanh(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_NCHW});
        this->Input("filter").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_NCHW});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_NCHW});

        this->SetInferShape(ge::ConvChannelMinDoubleTanhShape).SetInferDataType(ge::ConvChannelMinDoubleTanhDtype);
        this->AICore().SetTiling(optiling::ConvChannelMinDoubleTanhTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ConvChannelMinDoubleTanh);
}
