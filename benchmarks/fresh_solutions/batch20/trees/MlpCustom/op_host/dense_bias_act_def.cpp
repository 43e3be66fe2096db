#include "dense_bias_act_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus DenseBiasActTilingFunc(gert::TilingContext *ctx);
}

namespace ge {
static graphStatus DenseBiasActShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *w = ctx->GetInputShape(1);
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(2);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    return GRAPH_SUCCESS;
}
static graphStatus DenseBiasActDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class DenseBiasAct : public OpDef {
public:
    explicit DenseBiasAct(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("relu").AttrType(OPTIONAL).Bool(true);

        this->SetInferShape(ge::DenseBiasActShape).SetInferDataType(ge::DenseBiasActDtype);
        this->AICore().SetTiling(optiling::DenseBiasActTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(DenseBiasAct);
}  // namespace ops
