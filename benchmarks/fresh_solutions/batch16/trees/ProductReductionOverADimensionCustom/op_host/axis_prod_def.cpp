/**
 * @file axis_prod_def.cpp
 * Operator definition of AxisProd.
 */
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus AxisProdTilingFunc(gert::TilingContext *context);
}

namespace ge {
static ge::graphStatus AxisProdInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *xShape = context->GetInputShape(0);
    gert::Shape *yShape = context->GetOutputShape(0);
    int64_t rank = static_cast<int64_t>(xShape->GetDimNum());
    const int64_t *dimAttr = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    int64_t axis = (dimAttr == nullptr) ? 0 : *dimAttr;
    if (axis < 0) {
        axis += rank;
    }
    if (axis < 0 || axis >= rank) {
        return GRAPH_FAILED;
    }
    yShape->SetDimNum(0);
    for (int64_t i = 0; i < rank; ++i) {
        if (i != axis) {
            yShape->AppendDim(xShape->GetDim(i));
        }
    }
    return GRAPH_SUCCESS;
}

static ge::graphStatus AxisProdInferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class AxisProd : public OpDef {
public:
    explicit AxisProd(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("dim").AttrType(REQUIRED).Int();

        this->SetInferShape(ge::AxisProdInferShape).SetInferDataType(ge::AxisProdInferDataType);
        this->AICore().SetTiling(optiling::AxisProdTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(AxisProd);
}  // namespace ops
