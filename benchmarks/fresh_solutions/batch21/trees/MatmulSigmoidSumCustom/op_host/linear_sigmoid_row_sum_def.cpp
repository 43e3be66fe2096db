#include "linear_sigmoid_row_sum_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus LinearSigmoidRowSumShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(2);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, 1);
    return GRAPH_SUCCESS;
}
static graphStatus LinearSigmoidRowSumDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ge::DT_FLOAT);
    return GRAPH_SUCCESS;
}
}

namespace ops {
class LinearSigmoidRowSum : public OpDef {
public:
    explicit LinearSigmoidRowSum(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->SetInferShape(ge::LinearSigmoidRowSumShape).SetInferDataType(ge::LinearSigmoidRowSumDtype);
        this->AICore().SetTiling(optiling::LinearSigmoidRowSumTiling).AddConfig("ascend910b");
    }
};
OP_ADD(LinearSigmoidRowSum);
}
