#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus AdamStepUpdateTilingFunc(gert::TilingContext *context);
}

namespace ops {
static ge::graphStatus AdamStepUpdateInferShape(gert::InferShapeContext *context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return ge::GRAPH_SUCCESS;
}
static ge::graphStatus AdamStepUpdateInferType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}

class AdamStepUpdate : public OpDef {
public:
    explicit AdamStepUpdate(const char *name) : OpDef(name)
    {
        for (const char *in : {"param", "grad", "exp_avg", "exp_avg_sq"}) {
            this->Input(in)
                .ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
                .Format({ge::FORMAT_ND, ge::FORMAT_ND})
                .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        }
        this->Output("param_out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("lr").AttrType(OPTIONAL).Float(1e-3f);
        this->Attr("beta1").AttrType(OPTIONAL).Float(0.9f);
        this->Attr("beta2").AttrType(OPTIONAL).Float(0.999f);
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-8f);
        this->Attr("step").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(AdamStepUpdateInferShape).SetInferDataType(AdamStepUpdateInferType);
        this->AICore().SetTiling(optiling::AdamStepUpdateTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(AdamStepUpdate);
}
