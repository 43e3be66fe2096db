#include "apply_adagrad_dense_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus ApplyAdagradDenseInferShape(gert::InferShapeContext *ctx)
{
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);   // var_out like var
    *ctx->GetOutputShape(1) = *ctx->GetInputShape(2);   // accum_out like accum
    return GRAPH_SUCCESS;
}
static graphStatus ApplyAdagradDenseInferDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    ctx->SetOutputDataType(1, ctx->GetInputDataType(2));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class ApplyAdagradDense : public OpDef {
public:
    explicit ApplyAdagradDense(const char *name) : OpDef(name)
    {
        const std::vector<ge::DataType> types = {ge::DT_FLOAT, ge::DT_FLOAT16};
        const std::vector<ge::Format> fmts = {ge::FORMAT_ND, ge::FORMAT_ND};
        this->Input("var").ParamType(REQUIRED).DataType(types).Format(fmts).UnknownShapeFormat(fmts);
        this->Input("grad").ParamType(REQUIRED).DataType(types).Format(fmts).UnknownShapeFormat(fmts);
        this->Input("accum").ParamType(REQUIRED).DataType(types).Format(fmts).UnknownShapeFormat(fmts);
        this->Output("var_out").ParamType(REQUIRED).DataType(types).Format(fmts).UnknownShapeFormat(fmts);
        this->Output("accum_out").ParamType(REQUIRED).DataType(types).Format(fmts).UnknownShapeFormat(fmts);
        this->Attr("lr").AttrType(OPTIONAL).Float(0.01f);
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-10f);

        this->SetInferShape(ge::ApplyAdagradDenseInferShape).SetInferDataType(ge::ApplyAdagradDenseInferDtype);
        this->AICore().SetTiling(optiling::ApplyAdagradDenseTiling);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend310p");
    }
};
OP_ADD(ApplyAdagradDense);
}
