// MeanAbsNormalize: y = x / mean(|x|, axis, keepdim=True)
#include "mean_abs_normalize_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus MeanAbsNormalizeInferShape(gert::InferShapeContext *ctx)
{
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static graphStatus MeanAbsNormalizeInferType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class MeanAbsNormalize : public OpDef {
public:
    explicit MeanAbsNormalize(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("axis").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::MeanAbsNormalizeInferShape).SetInferDataType(ge::MeanAbsNormalizeInferType);
        this->AICore().SetTiling(optiling::MeanAbsNormalizeTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MeanAbsNormalize);
}  // namespace ops
