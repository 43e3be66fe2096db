#include "deconv2d_clip_gelu_scale_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus Deconv2dClipGeluScaleTilingFunc(gert::TilingContext *ctx);
}

namespace ge {
static graphStatus Deconv2dClipGeluScaleShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *w = ctx->GetInputShape(1);
    const int64_t s = *ctx->GetAttrs()->GetAttrPointer<int64_t>(0);
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1));
    y->SetDim(2, (x->GetDim(2) - 1) * s + w->GetDim(2));
    y->SetDim(3, (x->GetDim(3) - 1) * s + w->GetDim(3));
    return GRAPH_SUCCESS;
}
static graphStatus Deconv2dClipGeluScaleType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class Deconv2dClipGeluScale : public OpDef {
public:
    explicit Deconv2dClipGeluScale(const char *name) : OpDef(name)
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
        this->Attr("add_value").AttrType(OPTIONAL).Float(0.0f);
        this->Attr("mul_value").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::Deconv2dClipGeluScaleShape).SetInferDataType(ge::Deconv2dClipGeluScaleType);
        this->AICore().SetTiling(optiling::Deconv2dClipGeluScaleTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Deconv2dClipGeluScale);
}
