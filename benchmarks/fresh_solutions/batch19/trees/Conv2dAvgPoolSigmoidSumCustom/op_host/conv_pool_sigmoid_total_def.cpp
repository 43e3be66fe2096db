#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus ConvPoolSigmoidTotalTiling(gert::TilingContext *context);
}

namespace ge {
static graphStatus ConvPoolSigmoidTotalShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    gert::Shape *out = context->GetOutputShape(0);
    out->SetDimNum(1);
    out->SetDim(0, x->GetDim(0));
    return GRAPH_SUCCESS;
}
static graphStatus ConvPoolSigmoidTotalType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class ConvPoolSigmoidTotal : public OpDef {
public:
    explicit ConvPoolSigmoidTotal(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("filter")
            .ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias")
            .ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("total")
            .ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("pool_size").AttrType(REQUIRED).Int();

        this->SetInferShape(ge::ConvPoolSigmoidTotalShape).SetInferDataType(ge::ConvPoolSigmoidTotalType);
        this->AICore().SetTiling(optiling::ConvPoolSigmoidTotalTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ConvPoolSigmoidTotal);
}
