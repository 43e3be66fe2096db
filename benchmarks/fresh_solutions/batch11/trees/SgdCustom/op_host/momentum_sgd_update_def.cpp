#include "momentum_sgd_update_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus MomentumSgdUpdateShape(gert::InferShapeContext *ctx)
{
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
    *ctx->GetOutputShape(1) = *ctx->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static graphStatus MomentumSgdUpdateDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    ctx->SetOutputDataType(1, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class MomentumSgdUpdate : public OpDef {
public:
    explicit MomentumSgdUpdate(const char *name) : OpDef(name)
    {
        for (const char *in : {"param", "grad", "velocity"}) {
            this->Input(in)
                .ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
                .Format({ge::FORMAT_ND, ge::FORMAT_ND})
                .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        }
        for (const char *out : {"param_out", "velocity_out"}) {
            this->Output(out)
                .ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
                .Format({ge::FORMAT_ND, ge::FORMAT_ND})
                .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        }
        this->Attr("lr").AttrType(OPTIONAL).Float(0.01f);
        this->Attr("momentum").AttrType(OPTIONAL).Float(0.9f);

        this->SetInferShape(ge::MomentumSgdUpdateShape).SetInferDataType(ge::MomentumSgdUpdateDtype);
        this->AICore().SetTiling(optiling::MomentumSgdUpdateTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MomentumSgdUpdate);
} // namespace ops
