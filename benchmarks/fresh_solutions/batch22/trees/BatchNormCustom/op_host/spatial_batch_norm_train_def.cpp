#include "spatial_batch_norm_train_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus SbnInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    *ctx->GetOutputShape(0) = *x;
    for (size_t i = 1; i <= 2; ++i) {
        gert::Shape *s = ctx->GetOutputShape(i);
        s->SetDimNum(1);
        s->SetDim(0, x->GetDim(1));
    }
    return GRAPH_SUCCESS;
}
static graphStatus SbnInferDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    ctx->SetOutputDataType(1, DT_FLOAT);
    ctx->SetOutputDataType(2, DT_FLOAT);
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class SpatialBatchNormTrain : public OpDef {
public:
    explicit SpatialBatchNormTrain(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("batch_mean").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("batch_var").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::SbnInferShape).SetInferDataType(ge::SbnInferDtype);
        this->AICore().SetTiling(optiling::SpatialBatchNormTrainTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(SpatialBatchNormTrain);
}  // namespace ops
