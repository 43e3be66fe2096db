#include "upscale_affine_warp_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus WarpInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const int64_t f = *ctx->GetAttrs()->GetAttrPointer<int64_t>(0);
    gert::Shape *y = ctx->GetOutputShape(0);
    *y = *x;
    y->SetDim(2, x->GetDim(2) * f);
    y->SetDim(3, x->GetDim(3) * f);
    return GRAPH_SUCCESS;
}
static graphStatus WarpInferType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class UpscaleAffineWarp : public OpDef {
public:
    explicit UpscaleAffineWarp(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_NCHW});
        this->Input("theta").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_NCHW});
        this->Attr("scale_factor").AttrType(OPTIONAL).Int(2);
        this->SetInferShape(ge::WarpInferShape).SetInferDataType(ge::WarpInferType);
        this->AICore().SetTiling(optiling::UpscaleAffineWarpTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(UpscaleAffineWarp);
}
