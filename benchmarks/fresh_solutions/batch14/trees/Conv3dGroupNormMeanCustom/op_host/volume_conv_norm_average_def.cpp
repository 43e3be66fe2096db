#include "volume_conv_norm_average_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus VolumeConvNormAverageInferShape(gert::InferShapeContext *context)
{
    gert::Shape *out = context->GetOutputShape(0);
    out->SetDimNum(1);
    out->SetDim(0, context->GetInputShape(0)->GetDim(0));
    return GRAPH_SUCCESS;
}
static graphStatus VolumeConvNormAverageInferType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, ge::DT_FLOAT);
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class VolumeConvNormAverage : public OpDef {
public:
    explicit VolumeConvNormAverage(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("filter").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("filter_bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("num_groups").AttrType(REQUIRED).Int();
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::VolumeConvNormAverageInferShape)
            .SetInferDataType(ge::VolumeConvNormAverageInferType);
        this->AICore().SetTiling(optiling::VolumeConvNormAverageTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(VolumeConvNormAverage);
} // namespace ops
