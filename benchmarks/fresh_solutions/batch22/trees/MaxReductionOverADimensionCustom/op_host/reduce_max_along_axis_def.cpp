#include "reduce_max_along_axis_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus ReduceMaxAlongAxisInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *xShape = context->GetInputShape(0);
    gert::Shape *yShape = context->GetOutputShape(0);
    const int64_t *dimAttr = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    int64_t rank = static_cast<int64_t>(xShape->GetDimNum());
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

static graphStatus ReduceMaxAlongAxisInferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class ReduceMaxAlongAxis : public OpDef {
public:
    explicit ReduceMaxAlongAxis(const char *name) : OpDef(name)
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
        this->Attr("dim").AttrType(OPTIONAL).Int(0);

        this->SetInferShape(ge::ReduceMaxAlongAxisInferShape)
            .SetInferDataType(ge::ReduceMaxAlongAxisInferDataType);

        this->AICore().SetTiling(optiling::ReduceMaxAlongAxisTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ReduceMaxAlongAxis);
}  // namespace ops
