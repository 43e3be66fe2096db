#include "deconv2d_mish_clip_scale_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus Deconv2dMishClipScaleInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *w = ctx->GetInputShape(1);
    const auto *attrs = ctx->GetAttrs();
    const int64_t s = *attrs->GetAttrPointer<int64_t>(0);
    const int64_t p = *attrs->GetAttrPointer<int64_t>(1);
    const int64_t op = *attrs->GetAttrPointer<int64_t>(2);
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1));
    y->SetDim(2, (x->GetDim(2) - 1) * s - 2 * p + w->GetDim(2) + op);
    y->SetDim(3, (x->GetDim(3) - 1) * s - 2 * p + w->GetDim(3) + op);
    return GRAPH_SUCCESS;
}
static graphStatus Deconv2dMishClipScaleInferDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class Deconv2dMishClipScale : public OpDef {
public:
    explicit Deconv2dMishClipScale(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});

        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("padding").AttrType(OPTIONAL).Int(0);
        this->Attr("output_padding").AttrType(OPTIONAL).Int(0);
        this->Attr("add_value").AttrType(OPTIONAL).Float(0.0f);
        this->Attr("scale").AttrType(OPTIONAL).Float(1.0f);
        this->Attr("clip_min").AttrType(OPTIONAL).Float(-1.0f);
        this->Attr("clip_max").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::Deconv2dMishClipScaleInferShape)
            .SetInferDataType(ge::Deconv2dMishClipScaleInferDtype);
        this->AICore().SetTiling(optiling::Deconv2dMishClipScaleTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Deconv2dMishClipScale);
}
