#include "conv_mish_batchnorm_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus ConvMishBatchNormShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *w = ctx->GetInputShape(1);
    gert::Shape *y = ctx->GetOutputShape(0);
    if (x == nullptr || w == nullptr || y == nullptr || x->GetDimNum() != 4 || w->GetDimNum() != 4) {
        return GRAPH_FAILED;
    }
    *y = *x;
    y->SetDim(1, w->GetDim(0));
    y->SetDim(2, x->GetDim(2) - w->GetDim(2) + 1);
    y->SetDim(3, x->GetDim(3) - w->GetDim(3) + 1);
    return GRAPH_SUCCESS;
}

static graphStatus ConvMishBatchNormDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class ConvMishBatchNorm : public OpDef {
public:
    explicit ConvMishBatchNorm(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_NCHW}).UnknownShapeFormat({ge::FORMAT_NCHW});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_NCHW}).UnknownShapeFormat({ge::FORMAT_NCHW});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_NCHW}).UnknownShapeFormat({ge::FORMAT_NCHW});
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::ConvMishBatchNormShape).SetInferDataType(ge::ConvMishBatchNormDtype);
        this->AICore().SetTiling(optiling::ConvMishBatchNormTiling);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ConvMishBatchNorm);
}  // namespace ops
