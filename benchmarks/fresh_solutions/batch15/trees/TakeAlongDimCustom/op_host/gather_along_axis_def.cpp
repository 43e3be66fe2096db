#include "gather_along_axis_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus GatherAlongAxisInferShape(gert::InferShapeContext *context)
{
    // the result takes the indices' shape
    *context->GetOutputShape(0) = *context->GetInputShape(1);
    return GRAPH_SUCCESS;
}
static graphStatus GatherAlongAxisInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class GatherAlongAxis : public OpDef {
public:
    explicit GatherAlongAxis(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("indices")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT64, ge::DT_INT64})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("dim").AttrType(REQUIRED).Int();

        this->SetInferShape(ge::GatherAlongAxisInferShape)
            .SetInferDataType(ge::GatherAlongAxisInferDtype);
        this->AICore().SetTiling(optiling::GatherAlongAxisTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(GatherAlongAxis);
}
