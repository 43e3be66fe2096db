/**
 * @file linear_scaled_gelu_def.cpp
 * @brief Operator prototype of LinearScaledGelu: y = gelu((x @ weight^T + bias) / divisor),
 *        exact (erf-based) GELU.
 */
#include "linear_scaled_gelu_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static ge::graphStatus LinearScaledGeluInferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    const gert::Shape* w = context->GetInputShape(1);
    gert::Shape* y = context->GetOutputShape(0);
    if (x == nullptr || w == nullptr || y == nullptr || x->GetDimNum() < 2 || w->GetDimNum() != 2) {
        return GRAPH_FAILED;
    }
    if (x->GetDim(x->GetDimNum() - 1) != w->GetDim(1)) {
        return GRAPH_FAILED;
    }
    *y = *x;
    y->SetDim(x->GetDimNum() - 1, w->GetDim(0));
    return GRAPH_SUCCESS;
}

static ge::graphStatus LinearScaledGeluInferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class LinearScaledGelu : public OpDef {
public:
    explicit LinearScaledGelu(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias")
            .ParamType(OPTIONAL)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->Attr("divisor").AttrType(REQUIRED).Float();

        this->SetInferShape(ge::LinearScaledGeluInferShape).SetInferDataType(ge::LinearScaledGeluInferDataType);

        this->AICore().SetTiling(optiling::LinearScaledGeluTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(LinearScaledGelu);
} // namespace ops
