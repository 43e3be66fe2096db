#include "deconv_pooled_lse_scale_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus DeconvPooledLseScaleInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *xShape = context->GetInputShape(0);
    gert::Shape *yShape = context->GetOutputShape(0);
    yShape->SetDimNum(2);
    yShape->SetDim(0, xShape->GetDim(0));
    yShape->SetDim(1, 1);
    return GRAPH_SUCCESS;
}

static graphStatus DeconvPooledLseScaleInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class DeconvPooledLseScale : public OpDef {
public:
    explicit DeconvPooledLseScale(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("conv_bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("channel_bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("scale").AttrType(OPTIONAL).Float(10.0f);

        this->SetInferShape(ge::DeconvPooledLseScaleInferShape)
            .SetInferDataType(ge::DeconvPooledLseScaleInferDtype);
        this->AICore().SetTiling(optiling::DeconvPooledLseScaleTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(DeconvPooledLseScale);
}  // namespace ops
