#include "dense_clamp_mish_group_norm_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus InferShapeDenseClampMishGN(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *w = ctx->GetInputShape(1);
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(2);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    return GRAPH_SUCCESS;
}
static graphStatus InferDtypeDenseClampMishGN(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class DenseClampMishGroupNorm : public OpDef {
public:
    explicit DenseClampMishGroupNorm(const char *name) : OpDef(name)
    {
        const char *inputs[] = {"x", "weight", "bias", "shift", "gamma", "beta"};
        for (const char *in : inputs) {
            this->Input(in).ParamType(REQUIRED).DataType({ge::DT_FLOAT})
                .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        }
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});

        this->Attr("num_groups").AttrType(REQUIRED).Int();
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-5f);
        this->Attr("clip_min").AttrType(OPTIONAL).Float(-1.0f);
        this->Attr("clip_max").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::InferShapeDenseClampMishGN).SetInferDataType(ge::InferDtypeDenseClampMishGN);
        this->AICore().SetTiling(optiling::DenseClampMishGroupNormTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(DenseClampMishGroupNorm);
}
