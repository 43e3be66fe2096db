#include "volume_conv_group_norm_clip_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus VolumeConvGroupNormClipTiling(gert::TilingContext *context);
}

namespace ge {
static ge::graphStatus VcgncInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    gert::Shape *y = context->GetOutputShape(0);
    y->SetDimNum(5);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    for (size_t i = 2; i < 5; ++i) {
        y->SetDim(i, x->GetDim(i) - w->GetDim(i) + 1);
    }
    return GRAPH_SUCCESS;
}
static ge::graphStatus VcgncInferType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class VolumeConvGroupNormClip : public OpDef {
public:
    explicit VolumeConvGroupNormClip(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});       // [N, Cin, D, H, W]
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});       // [Cout, Cin, k, k, k]
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});       // [Cout]
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});       // [Cout]
        this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});       // [Cout]
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});

        this->Attr("num_groups").Int();
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-5f);
        this->Attr("cap").AttrType(OPTIONAL).Float(0.0f);
        this->Attr("clip_low").AttrType(OPTIONAL).Float(0.0f);
        this->Attr("clip_high").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::VcgncInferShape).SetInferDataType(ge::VcgncInferType);
        this->AICore().SetTiling(optiling::VolumeConvGroupNormClipTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(VolumeConvGroupNormClip);
}  // namespace ops
