#include "dense_activation_chain_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus DenseActivationChainTiling(gert::TilingContext *ctx);
}

namespace ge {
static graphStatus DenseActivationChainShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *w = ctx->GetInputShape(1);
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(2);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    return GRAPH_SUCCESS;
}
static graphStatus DenseActivationChainDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class DenseActivationChain : public OpDef {
public:
    explicit DenseActivationChain(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        // bias and shift stay fp32 so the epilogue never rounds through half
        this->Input("bias").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("shift").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("clip_min").AttrType(OPTIONAL).Float(-1.0f);
        this->Attr("clip_max").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::DenseActivationChainShape).SetInferDataType(ge::DenseActivationChainDtype);
        this->AICore().SetTiling(optiling::DenseActivationChainTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(DenseActivationChain);
}  // namespace ops
