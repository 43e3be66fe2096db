#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus MeanAbsNormalizeTiling(gert::TilingContext* context);
}

namespace ge {
static graphStatus MeanAbsNormalizeShape(gert::InferShapeContext* ctx)
{
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static graphStatus MeanAbsNormalizeType(gert::InferDataTypeContext* ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
// Divides each element by the mean absolute value taken along axis 1.
class MeanAbsNormalize : public OpDef {
public:
    explicit MeanAbsNormalize(const char* name) : OpDef(name)
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

        this->SetInferShape(ge::MeanAbsNormalizeShape).SetInferDataType(ge::MeanAbsNormalizeType);
        this->AICore().SetTiling(optiling::MeanAbsNormalizeTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MeanAbsNormalize);
} // namespace ops
