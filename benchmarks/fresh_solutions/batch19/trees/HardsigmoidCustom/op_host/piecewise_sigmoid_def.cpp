// OpDef for PiecewiseSigmoid: y = clip(alpha * x + beta, 0, 1)
#include "piecewise_sigmoid_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus PiecewiseSigmoidInferShape(gert::InferShapeContext *ctx)
{
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
    return GRAPH_SUCCESS;
}

static graphStatus PiecewiseSigmoidInferType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class PiecewiseSigmoid : public OpDef {
public:
    explicit PiecewiseSigmoid(const char *name) : OpDef(name)
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
        this->Attr("alpha").AttrType(OPTIONAL).Float(1.0f / 6.0f);
        this->Attr("beta").AttrType(OPTIONAL).Float(0.5f);

        this->SetInferShape(ge::PiecewiseSigmoidInferShape).SetInferDataType(ge::PiecewiseSigmoidInferType);
        this->AICore().SetTiling(optiling::PiecewiseSigmoidTiling);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend310p");
    }
};
OP_ADD(PiecewiseSigmoid);
}
