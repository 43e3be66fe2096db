#include "scaled_exp_linear_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus ScaledExpLinearShape(gert::InferShapeContext *ctx)
{
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static graphStatus ScaledExpLinearDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class ScaledExpLinear : public OpDef {
public:
    explicit ScaledExpLinear(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("alpha").AttrType(OPTIONAL).Float(1.6732632423543772f);
        this->Attr("scale").AttrType(OPTIONAL).Float(1.0507009873554805f);

        this->SetInferShape(ge::ScaledExpLinearShape).SetInferDataType(ge::ScaledExpLinearDtype);
        this->AICore().SetTiling(optiling::ScaledExpLinearTilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend310p");
    }
};
OP_ADD(ScaledExpLinear);
}
