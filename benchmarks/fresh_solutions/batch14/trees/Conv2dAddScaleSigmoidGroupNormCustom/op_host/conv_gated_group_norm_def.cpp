#include "conv_gated_group_norm_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus InferShapeConvGatedGn(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *w = ctx->GetInputShape(1);
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    y->SetDim(2, x->GetDim(2) - w->GetDim(2) + 1);
    y->SetDim(3, x->GetDim(3) - w->GetDim(3) + 1);
    return GRAPH_SUCCESS;
}

static graphStatus InferDtypeConvGatedGn(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class ConvGatedGroupNorm : public OpDef {
public:
    explicit ConvGatedGroupNorm(const char *name) : OpDef(name)
    {
        const char *inputs[] = {"x", "weight", "conv_bias", "shift", "scale", "gamma", "beta"};
        for (const char *in : inputs) {
            this->Input(in)
                .ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT})
                .Format({ge::FORMAT_ND})
                .UnknownShapeFormat({ge::FORMAT_ND});
        }
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("num_groups").AttrType(REQUIRED).Int();
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::InferShapeConvGatedGn).SetInferDataType(ge::InferDtypeConvGatedGn);
        this->AICore().SetTiling(optiling::ConvGatedGroupNormTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ConvGatedGroupNorm);
} // namespace ops
