#include "linear_output_sum_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus LinearOutputSumInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    gert::Shape *y = ctx->GetOutputShape(0);
    if (x == nullptr || y == nullptr || x->GetDimNum() != 2) {
        return GRAPH_FAILED;
    }
    y->SetDimNum(2);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, 1);
    return GRAPH_SUCCESS;
}

static graphStatus LinearOutputSumInferDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class LinearOutputSum : public OpDef {
public:
    explicit LinearOutputSum(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight")    // [out_features, in_features]
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias")      // [out_features]
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")        // [batch, 1]
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::LinearOutputSumInferShape).SetInferDataType(ge::LinearOutputSumInferDtype);
        this->AICore().SetTiling(optiling::LinearOutputSumTiling);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(LinearOutputSum);
}  // namespace ops
