#include "axis_scatter_assign_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus AxisScatterAssignTilingFunc(gert::TilingContext* context);
}

namespace ge {
static graphStatus AxisScatterAssignInferShape(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static graphStatus AxisScatterAssignInferDtype(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class AxisScatterAssign : public OpDef {
public:
    explicit AxisScatterAssign(const char* name) : OpDef(name)
    {
        // every (value dtype, index dtype) pair is listed column-wise
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("index")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT64, ge::DT_INT32, ge::DT_INT64, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("updates")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("dim").AttrType(REQUIRED).Int();

        this->SetInferShape(ge::AxisScatterAssignInferShape)
            .SetInferDataType(ge::AxisScatterAssignInferDtype);
        this->AICore().SetTiling(optiling::AxisScatterAssignTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(AxisScatterAssign);
}  // namespace ops
