#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus LinearRectifiedScaleTilingFunc(gert::TilingContext *context);
}

namespace ge {
static graphStatus LinearRectifiedScaleInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    gert::Shape *y = context->GetOutputShape(0);
    y->SetDimNum(2);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    return GRAPH_SUCCESS;
}
static graphStatus LinearRectifiedScaleInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class LinearRectifiedScale : public OpDef {
public:
    explicit LinearRectifiedScale(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("divisor").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::LinearRectifiedScaleInferShape).SetInferDataType(ge::LinearRectifiedScaleInferDtype);
        this->AICore().SetTiling(optiling::LinearRectifiedScaleTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(LinearRectifiedScale);
}  // namespace ops
