#include "axis_log_normalize_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus AxisLogNormalizeInferShape(gert::InferShapeContext *ctx)
{
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static graphStatus AxisLogNormalizeInferDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class AxisLogNormalize : public OpDef {
public:
    explicit AxisLogNormalize(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("dim").AttrType(OPTIONAL).Int(-1);
        this->SetInferShape(ge::AxisLogNormalizeInferShape).SetInferDataType(ge::AxisLogNormalizeInferDtype);
        this->AICore().SetTiling(optiling::AxisLogNormalizeTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(AxisLogNormalize);
}
