#include "pointwise_conv_affine_act_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus PointwiseConvAffineActInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *w = ctx->GetInputShape(1);
    gert::Shape *y = ctx->GetOutputShape(0);
    *y = *x;
    y->SetDim(1, w->GetDim(0));
    return GRAPH_SUCCESS;
}

static graphStatus PointwiseConvAffineActInferType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class PointwiseConvAffineAct : public OpDef {
public:
    explicit PointwiseConvAffineAct(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW})
            .UnknownShapeFormat({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        this->Input("weight").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("scale").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("shift").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW})
            .UnknownShapeFormat({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        this->Attr("activation").AttrType(OPTIONAL).Int(2);

        this->SetInferShape(ge::PointwiseConvAffineActInferShape)
            .SetInferDataType(ge::PointwiseConvAffineActInferType);
        this->AICore().SetTiling(optiling::PointwiseConvAffineActTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(PointwiseConvAffineAct);
} // namespace ops
