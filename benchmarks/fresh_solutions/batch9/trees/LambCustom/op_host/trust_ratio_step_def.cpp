#include "register/op_def_registry.h"

namespace ops {
ge::graphStatus TrustRatioStepTilingFunc(gert::TilingContext *context);

static ge::graphStatus TrustRatioStepInferShape(gert::InferShapeContext *context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return ge::GRAPH_SUCCESS;
}

static ge::graphStatus TrustRatioStepInferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}

class TrustRatioStep : public OpDef {
public:
    explicit TrustRatioStep(const char *name) : OpDef(name)
    {
        for (const char *in : {"param", "exp_avg", "exp_avg_sq"}) {
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
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-6f);

        this->SetInferShape(TrustRatioStepInferShape).SetInferDataType(TrustRatioStepInferDataType);
        this->AICore().SetTiling(TrustRatioStepTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(TrustRatioStep);
} // namespace ops
