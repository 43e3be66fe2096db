#include "linear_group_norm_clamp_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus InferShapeLinearGroupNormClamp(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *w = ctx->GetInputShape(1);
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(2);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    return GRAPH_SUCCESS;
}

static graphStatus InferDtypeLinearGroupNormClamp(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class LinearGroupNormClamp : public OpDef {
public:
    explicit LinearGroupNormClamp(const char *name) : OpDef(name)
    {
        for (const char *in : {"x", "weight", "bias", "gamma", "beta"}) {
            this->Input(in)
                .ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
                .Format({ge::FORMAT_ND, ge::FORMAT_ND})
                .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        }
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("num_groups").AttrType(REQUIRED).Int();
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5f);
        this->Attr("clip_min").AttrType(OPTIONAL).Float(-1.0f);
        this->Attr("clip_max").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::InferShapeLinearGroupNormClamp).SetInferDataType(ge::InferDtypeLinearGroupNormClamp);
        this->AICore().SetTiling(optiling::LinearGroupNormClampTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(LinearGroupNormClamp);
}  // namespace ops
