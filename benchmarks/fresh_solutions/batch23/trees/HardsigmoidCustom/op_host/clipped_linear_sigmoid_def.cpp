#include "clipped_linear_sigmoid_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus ClippedLinearSigmoidTilingFunc(gert::TilingContext *ctx);
}

namespace ge {
static graphStatus ClsInferShape(gert::InferShapeContext *ctx)
{
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static graphStatus ClsInferDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class ClippedLinearSigmoid : public OpDef {
public:
    explicit ClippedLinearSigmoid(const char *name) : OpDef(name)
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
        // slope and offset of the linear segment; defaults give the common 1/6, 1/2 variant
        this->Attr("alpha").AttrType(OPTIONAL).Float(1.0f / 6.0f);
        this->Attr("beta").AttrType(OPTIONAL).Float(0.5f);

        this->SetInferShape(ge::ClsInferShape).SetInferDataType(ge::ClsInferDtype);
        this->AICore().SetTiling(optiling::ClippedLinearSigmoidTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ClippedLinearSigmoid);
}  // namespace ops
