#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus LinearReluScaleDownTiling(gert::TilingContext *context);
}

namespace ge {
static graphStatus LinearReluScaleDownInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    gert::Shape *y = context->GetOutputShape(0);
    *y = *x;
    y->SetDim(x->GetDimNum() - 1, w->GetDim(0));
    return GRAPH_SUCCESS;
}
static graphStatus LinearReluScaleDownInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class LinearReluScaleDown : public OpDef {
public:
    explicit LinearReluScaleDown(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("divisor").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::LinearReluScaleDownInferShape).SetInferDataType(ge::LinearReluScaleDownInferDtype);
        this->AICore().SetTiling(optiling::LinearReluScaleDownTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(LinearReluScaleDown);
}  // namespace ops
