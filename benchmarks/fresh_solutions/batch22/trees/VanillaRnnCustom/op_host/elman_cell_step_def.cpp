#include "elman_cell_step_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus ElmanCellStepInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *h = ctx->GetInputShape(1);
    const gert::Shape *wHo = ctx->GetInputShape(4);
    gert::Shape *y = ctx->GetOutputShape(0);
    gert::Shape *hOut = ctx->GetOutputShape(1);
    y->SetDimNum(2);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, wHo->GetDim(0));
    *hOut = *h;
    return GRAPH_SUCCESS;
}

static graphStatus ElmanCellStepInferDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    ctx->SetOutputDataType(1, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class ElmanCellStep : public OpDef {
public:
    explicit ElmanCellStep(const char *name) : OpDef(name)
    {
        const char *ins[] = {"x", "h", "weight_ih", "bias_ih", "weight_ho", "bias_ho"};
        for (const char *n : ins) {
            this->Input(n)
                .ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT})
                .Format({ge::FORMAT_ND})
                .UnknownShapeFormat({ge::FORMAT_ND});
        }
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("h_out").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});

        this->SetInferShape(ge::ElmanCellStepInferShape).SetInferDataType(ge::ElmanCellStepInferDtype);
        this->AICore().SetTiling(optiling::ElmanCellStepTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ElmanCellStep);
}  // namespace ops
