#include "register/op_def_registry.h"
#include "conv2d_affine_act_tiling.h"

namespace optiling {
ge::graphStatus Conv2dAffineActTilingFunc(gert::TilingContext *ctx);
}

namespace ge {
static graphStatus Conv2dAffineActShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *w = ctx->GetInputShape(1);
    int64_t s = *ctx->GetAttrs()->GetAttrPointer<int64_t>(0);
    int64_t p = *ctx->GetAttrs()->GetAttrPointer<int64_t>(1);
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    y->SetDim(2, (x->GetDim(2) + 2 * p - w->GetDim(2)) / s + 1);
    y->SetDim(3, (x->GetDim(3) + 2 * p - w->GetDim(3)) / s + 1);
    return GRAPH_SUCCESS;
}
static graphStatus Conv2dAffineActType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class Conv2dAffineAct : public OpDef {
public:
    explicit Conv2dAffineAct(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("scale").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("shift").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("residual").ParamType(OPTIONAL).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("padding").AttrType(OPTIONAL).Int(0);
        this->Attr("relu").AttrType(OPTIONAL).Bool(true);

        this->SetInferShape(ge::Conv2dAffineActShape).SetInferDataType(ge::Conv2dAffineActType);
        this->AICore().SetTiling(optiling::Conv2dAffineActTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Conv2dAffineAct);
}  // namespace ops
