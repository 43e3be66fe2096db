#include "register/op_def_registry.h"

namespace ops {
ge::graphStatus SquaredErrorMeanTiling(gert::TilingContext *context);

static ge::graphStatus SquaredErrorMeanInferShape(gert::InferShapeContext *context)
{
    // full reduction: the result is a 0-d tensor
    gert::Shape *yShape = context->GetOutputShape(0);
    yShape->SetDimNum(0);
    return ge::GRAPH_SUCCESS;
}

static ge::graphStatus SquaredErrorMeanInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}

class SquaredErrorMean : public OpDef {
public:
    explicit SquaredErrorMean(const char *name) : OpDef(name)
    {
        this->Input("prediction")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("target")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("loss")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(SquaredErrorMeanInferShape).SetInferDataType(SquaredErrorMeanInferDtype);
        this->AICore().SetTiling(SquaredErrorMeanTiling);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(SquaredErrorMean);
}  // namespace ops
