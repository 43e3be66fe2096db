#include "hyperbolic_tangent_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus HyperbolicTangentTilingFunc(gert::TilingContext *context);
}

namespace ge {
static graphStatus HyperbolicTangentInferShape(gert::InferShapeContext *context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static graphStatus HyperbolicTangentInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class HyperbolicTangent : public OpDef {
public:
    explicit HyperbolicTangent(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::HyperbolicTangentInferShape).SetInferDataType(ge::HyperbolicTangentInferDtype);
        this->AICore().SetTiling(optiling::HyperbolicTangentTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(HyperbolicTangent);
}  // namespace ops
