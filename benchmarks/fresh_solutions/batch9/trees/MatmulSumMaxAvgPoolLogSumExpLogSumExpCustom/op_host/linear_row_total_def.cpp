/**
 * @file linear_row_total_def.cpp
 * Operator definition of LinearRowTotal.
 */
#include "linear_row_total_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static ge::graphStatus LinearRowTotalInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *xShape = context->GetInputShape(0);
    gert::Shape *yShape = context->GetOutputShape(0);
    if (xShape == nullptr || yShape == nullptr || xShape->GetDimNum() != 2) {
        return GRAPH_FAILED;
    }
    yShape->SetDimNum(2);
    yShape->SetDim(0, xShape->GetDim(0));
    yShape->SetDim(1, 1);
    return GRAPH_SUCCESS;
}

static ge::graphStatus LinearRowTotalInferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class LinearRowTotal : public OpDef {
public:
    explicit LinearRowTotal(const char *name) : OpDef(name)
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
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::LinearRowTotalInferShape).SetInferDataType(ge::LinearRowTotalInferDataType);
        this->AICore().SetTiling(optiling::LinearRowTotalTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(LinearRowTotal);
} // namespace ops
