#include "deconv_bias_clamp_rescale_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus DeconvInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *w = ctx->GetInputShape(1);
    auto attrs = ctx->GetAttrs();
    int64_t s = *attrs->GetAttrPointer<int64_t>(0);
    int64_t p = *attrs->GetAttrPointer<int64_t>(1);
    int64_t op = *attrs->GetAttrPointer<int64_t>(2);
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1));
    y->SetDim(2, (x->GetDim(2) - 1) * s - 2 * p + w->GetDim(2) + op);
    y->SetDim(3, (x->GetDim(3) - 1) * s - 2 * p + w->GetDim(3) + op);
    return GRAPH_SUCCESS;
}
static graphStatus DeconvInferType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class DeconvBiasClampRescale : public OpDef {
public:
    explicit DeconvBiasClampRescale(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("conv_bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("channel_bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("padding").AttrType(OPTIONAL).Int(0);
        this->Attr("output_padding").AttrType(OPTIONAL).Int(0);
        this->Attr("scale").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::DeconvInferShape).SetInferDataType(ge::DeconvInferType);
        this->AICore().SetTiling(optiling::DeconvBiasClampRescaleTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(DeconvBiasClampRescale);
}
