#include "panel_gemm_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus PanelGemmShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *a = ctx->GetInputShape(0);
    const gert::Shape *b = ctx->GetInputShape(1);
    gert::Shape *c = ctx->GetOutputShape(0);
    if (a == nullptr || b == nullptr || c == nullptr) {
        return GRAPH_FAILED;
    }
    if (a->GetDimNum() != 2 || b->GetDimNum() != 2 || a->GetDim(1) != b->GetDim(0)) {
        return GRAPH_FAILED;
    }
    c->SetDimNum(2);
    c->SetDim(0, a->GetDim(0));
    c->SetDim(1, b->GetDim(1));
    return GRAPH_SUCCESS;
}

static graphStatus PanelGemmDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class PanelGemm : public OpDef {
public:
    explicit PanelGemm(const char *name) : OpDef(name)
    {
        this->Input("x1").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("x2").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::PanelGemmShape).SetInferDataType(ge::PanelGemmDtype);
        this->AICore().SetTiling(optiling::PanelGemmTiling);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(PanelGemm);
}  // namespace ops
