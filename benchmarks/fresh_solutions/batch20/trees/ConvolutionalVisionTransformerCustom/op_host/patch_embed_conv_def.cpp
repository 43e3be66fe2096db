#include "patch_embed_conv_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus PatchEmbedConvTilingFunc(gert::TilingContext *ctx);
}

namespace ge {
static graphStatus PatchEmbedConvShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *w = ctx->GetInputShape(1);
    int64_t p = w->GetDim(2);
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    y->SetDim(2, x->GetDim(2) / p);
    y->SetDim(3, x->GetDim(3) / p);
    return GRAPH_SUCCESS;
}
static graphStatus PatchEmbedConvDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class PatchEmbedConv : public OpDef {
public:
    explicit PatchEmbedConv(const char *name) : OpDef(name)
    {
        this->Input("image").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        this->Input("weight").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        this->Input("bias").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("tokens").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        this->SetInferShape(ge::PatchEmbedConvShape).SetInferDataType(ge::PatchEmbedConvDtype);
        this->AICore().SetTiling(optiling::PatchEmbedConvTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(PatchEmbedConv);
}  // namespace ops
