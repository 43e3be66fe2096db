#include "softmax_xent_mean_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus SoftmaxXentMeanInferShape(gert::InferShapeContext *context)
{
    gert::Shape *loss = context->GetOutputShape(0);
    loss->SetDimNum(0);           // scalar
    return GRAPH_SUCCESS;
}
static graphStatus SoftmaxXentMeanInferType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class SoftmaxXentMean : public OpDef {
public:
    explicit SoftmaxXentMean(const char *name) : OpDef(name)
    {
        this->Input("logits").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("labels").ParamType(REQUIRED)
            .DataType({ge::DT_INT64, ge::DT_INT64, ge::DT_INT32, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("loss").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("ignore_index").AttrType(OPTIONAL).Int(-100);

        this->SetInferShape(ge::SoftmaxXentMeanInferShape).SetInferDataType(ge::SoftmaxXentMeanInferType);
        this->AICore().SetTiling(optiling::SoftmaxXentMeanTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(SoftmaxXentMean);
}
