#include "diagonal_row_scale_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus DiagonalRowScaleShape(gert::InferShapeContext *ctx)
{
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(1);
    return GRAPH_SUCCESS;
}
static graphStatus DiagonalRowScaleDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(1));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class DiagonalRowScale : public OpDef {
public:
    explicit DiagonalRowScale(const char *name) : OpDef(name)
    {
        this->Input("diag")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("matrix")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::DiagonalRowScaleShape).SetInferDataType(ge::DiagonalRowScaleDtype);
        this->AICore().SetTiling(optiling::DiagonalRowScaleTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(DiagonalRowScale);
}  // namespace ops
