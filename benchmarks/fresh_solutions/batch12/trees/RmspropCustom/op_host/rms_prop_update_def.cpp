// RmsPropUpdate: one RMSprop step (no momentum, not centered).
//   square_avg_out = alpha * square_avg + (1 - alpha) * grad^2
//   param_out      = param - lr * grad / (sqrt(square_avg_out) + eps)
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus RmsPropUpdateTilingFunc(gert::TilingContext *context);
}

namespace ge {
static graphStatus RmsPropUpdateInferShape(gert::InferShapeContext *ctx)
{
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
    *ctx->GetOutputShape(1) = *ctx->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static graphStatus RmsPropUpdateInferDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    ctx->SetOutputDataType(1, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class RmsPropUpdate : public OpDef {
public:
    explicit RmsPropUpdate(const char *name) : OpDef(name)
    {
        this->Input("param").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("grad").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("square_avg").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("param_out").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("square_avg_out").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});

        this->Attr("lr").AttrType(OPTIONAL).Float(1e-3f);
        this->Attr("alpha").AttrType(OPTIONAL).Float(0.99f);
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-8f);

        this->SetInferShape(ge::RmsPropUpdateInferShape).SetInferDataType(ge::RmsPropUpdateInferDtype);
        this->AICore().SetTiling(optiling::RmsPropUpdateTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(RmsPropUpdate);
}  // namespace ops
