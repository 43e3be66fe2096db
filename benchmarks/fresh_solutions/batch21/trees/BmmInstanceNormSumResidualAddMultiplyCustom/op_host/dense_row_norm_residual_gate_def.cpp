#include "dense_row_norm_residual_gate_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus DenseRowNormResidualGateInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    gert::Shape *out = context->GetOutputShape(0);
    out->SetDimNum(2);
    out->SetDim(0, x->GetDim(0));
    out->SetDim(1, w->GetDim(0));
    return GRAPH_SUCCESS;
}
static graphStatus DenseRowNormResidualGateInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class DenseRowNormResidualGate : public OpDef {
public:
    explicit DenseRowNormResidualGate(const char *name) : OpDef(name)
    {
        const std::vector<ge::DataType> types = {ge::DT_FLOAT, ge::DT_FLOAT16};
        const std::vector<ge::Format> fmts = {ge::FORMAT_ND, ge::FORMAT_ND};
        this->Input("x").ParamType(REQUIRED).DataType(types).Format(fmts).UnknownShapeFormat(fmts);
        this->Input("weight").ParamType(REQUIRED).DataType(types).Format(fmts).UnknownShapeFormat(fmts);
        this->Input("bias").ParamType(REQUIRED).DataType(types).Format(fmts).UnknownShapeFormat(fmts);
        this->Input("gate").ParamType(REQUIRED).DataType(types).Format(fmts).UnknownShapeFormat(fmts);
        this->Output("y").ParamType(REQUIRED).DataType(types).Format(fmts).UnknownShapeFormat(fmts);
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::DenseRowNormResidualGateInferShape)
            .SetInferDataType(ge::DenseRowNormResidualGateInferDtype);
        this->AICore().SetTiling(optiling::DenseRowNormResidualGateTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(DenseRowNormResidualGate);
}  // namespace ops
