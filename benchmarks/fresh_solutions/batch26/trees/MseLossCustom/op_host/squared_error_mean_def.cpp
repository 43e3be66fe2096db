#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus SquaredErrorMeanTilingFunc(gert::TilingContext *ctx);
}

namespace ge {
static graphStatus SquaredErrorMeanShape(gert::InferShapeContext *ctx)
{
    gert::Shape *out = ctx->GetOutputShape(0);
    out->SetDimNum(0);      // scalar result
    return GRAPH_SUCCESS;
}
static graphStatus SquaredErrorMeanDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class SquaredErrorMean : public OpDef {
public:
    explicit SquaredErrorMean(const char *name) : OpDef(name)
    {
        this->Input("predict")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("label")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("loss")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::SquaredErrorMeanShape).SetInferDataType(ge::SquaredErrorMeanDtype);
        this->AICore().SetTiling(optiling::SquaredErrorMeanTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(SquaredErrorMean);
}
