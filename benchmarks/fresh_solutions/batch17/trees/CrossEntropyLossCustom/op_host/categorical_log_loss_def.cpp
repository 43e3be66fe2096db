#include "register/op_def_registry.h"

namespace optiling {
extern ge::graphStatus CategoricalLogLossTilingFunc(gert::TilingContext *context);
}

namespace ge {
static graphStatus CategoricalLogLossInferShape(gert::InferShapeContext *context)
{
    // the reduced loss is a 0-d tensor
    gert::Shape *lossShape = context->GetOutputShape(0);
    lossShape->SetDimNum(0);
    return GRAPH_SUCCESS;
}

static graphStatus CategoricalLogLossInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class CategoricalLogLoss : public OpDef {
public:
    explicit CategoricalLogLoss(const char *name) : OpDef(name)
    {
        this->Input("logits")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("labels")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT64, ge::DT_INT64, ge::DT_INT32, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("loss")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("ignore_index").AttrType(OPTIONAL).Int(-100);
        this->Attr("reduction").AttrType(OPTIONAL).String("mean");

        this->SetInferShape(ge::CategoricalLogLossInferShape)
            .SetInferDataType(ge::CategoricalLogLossInferDtype);
        this->AICore().SetTiling(optiling::CategoricalLogLossTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(CategoricalLogLoss);
}  // namespace ops
