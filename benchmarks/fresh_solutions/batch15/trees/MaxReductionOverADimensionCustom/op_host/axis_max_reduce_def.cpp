#include "axis_max_reduce_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus AxisMaxReduceShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    gert::Shape *y = context->GetOutputShape(0);
    int64_t rank = x->GetDimNum();
    int64_t axis = *context->GetAttrs()->GetAttrPointer<int64_t>(0);
    bool keepDims = *context->GetAttrs()->GetAttrPointer<bool>(1);
    axis = axis < 0 ? axis + rank : axis;
    y->SetDimNum(0);
    for (int64_t d = 0; d < rank; ++d) {
        if (d != axis) {
            y->AppendDim(x->GetDim(d));
        } else if (keepDims) {
            y->AppendDim(1);
        }
    }
    return GRAPH_SUCCESS;
}
static graphStatus AxisMaxReduceDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class AxisMaxReduce : public OpDef {
public:
    explicit AxisMaxReduce(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("values")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("axis").AttrType(REQUIRED).Int();
        this->Attr("keep_dims").AttrType(OPTIONAL).Bool(false);

        this->SetInferShape(ge::AxisMaxReduceShape).SetInferDataType(ge::AxisMaxReduceDtype);
        this->AICore().SetTiling(optiling::AxisMaxReduceTilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend310p");
    }
};
OP_ADD(AxisMaxReduce);
}
