#include "volume_conv_tanh_sigmoid_gate_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus VCTSGInferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    const gert::Shape* w = context->GetInputShape(1);
    gert::Shape* y = context->GetOutputShape(0);
    y->SetDimNum(5);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    for (size_t i = 2; i < 5; ++i) {
        y->SetDim(i, x->GetDim(i) - w->GetDim(i) + 1);
    }
    return GRAPH_SUCCESS;
}
static graphStatus VCTSGInferDtype(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class VolumeConvTanhSigmoidGate : public OpDef {
public:
    explicit VolumeConvTanhSigmoidGate(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_NCDHW}).UnknownShapeFormat({ge::FORMAT_NCDHW});
        this->Input("filter").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_NCDHW}).UnknownShapeFormat({ge::FORMAT_NCDHW});
        this->Input("conv_bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("pre_scale").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("post_scale").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_NCDHW}).UnknownShapeFormat({ge::FORMAT_NCDHW});

        this->SetInferShape(ge::VCTSGInferShape).SetInferDataType(ge::VCTSGInferDtype);
        this->AICore().SetTiling(optiling::VolumeConvTanhSigmoidGateTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(VolumeConvTanhSigmoidGate);
}
