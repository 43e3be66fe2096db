#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus TriuProductMatmulTiling(gert::TilingContext *context);
}

namespace ge {
static graphStatus TriuProductInferShape(gert::InferShapeContext *context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static graphStatus TriuProductInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class TriuProductMatmul : public OpDef {
public:
    explicit TriuProductMatmul(const char *name) : OpDef(name)
    {
        this->Input("a").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("c").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::TriuProductInferShape).SetInferDataType(ge::TriuProductInferDtype);
        this->AICore().SetTiling(optiling::TriuProductMatmulTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(TriuProductMatmul);
}  // namespace ops
