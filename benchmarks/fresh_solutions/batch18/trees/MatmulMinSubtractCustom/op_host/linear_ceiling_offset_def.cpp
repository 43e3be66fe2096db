#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus LinearCeilingOffsetTilingFunc(gert::TilingContext *context);
}

namespace ge {
static graphStatus LinearCeilingOffsetInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    gert::Shape *y = context->GetOutputShape(0);
    y->SetDimNum(2);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    return GRAPH_SUCCESS;
}
static graphStatus LinearCeilingOffsetInferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class LinearCeilingOffset : public OpDef {
public:
    explicit LinearCeilingOffset(const char *name) : OpDef(name)
    {
        const std::vector<ge::DataType> types = {ge::DT_FLOAT, ge::DT_FLOAT16};
        const std::vector<ge::Format> fmts = {ge::FORMAT_ND, ge::FORMAT_ND};
        this->Input("x").ParamType(REQUIRED).DataType(types).Format(fmts).UnknownShapeFormat(fmts);
        this->Input("weight").ParamType(REQUIRED).DataType(types).Format(fmts).UnknownShapeFormat(fmts);
        this->Input("bias").ParamType(REQUIRED).DataType(types).Format(fmts).UnknownShapeFormat(fmts);
        // single-element tensor: the ceiling that is both applied and subtracted
        this->Input("threshold").ParamType(REQUIRED).DataType(types).Format(fmts).UnknownShapeFormat(fmts);
        this->Output("y").ParamType(REQUIRED).DataType(types).Format(fmts).UnknownShapeFormat(fmts);

        this->SetInferShape(ge::LinearCeilingOffsetInferShape)
            .SetInferDataType(ge::LinearCeilingOffsetInferDataType);
        this->AICore().SetTiling(optiling::LinearCeilingOffsetTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(LinearCeilingOffset);
}  // namespace ops
