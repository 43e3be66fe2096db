#include "tensor_dot_last_axis_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus TensorDotLastAxisTilingFunc(gert::TilingContext *context);
}

namespace ge {
static graphStatus TensorDotLastAxisInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *a = context->GetInputShape(0);
    const gert::Shape *b = context->GetInputShape(1);
    gert::Shape *c = context->GetOutputShape(0);
    *c = *a;
    c->SetDim(a->GetDimNum() - 1, b->GetDim(1));
    return GRAPH_SUCCESS;
}

static graphStatus TensorDotLastAxisInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class TensorDotLastAxis : public OpDef {
public:
    explicit TensorDotLastAxis(const char *name) : OpDef(name)
    {
        this->Input("a")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("b")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("c")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::TensorDotLastAxisInferShape).SetInferDataType(ge::TensorDotLastAxisInferDtype);
        this->AICore().SetTiling(optiling::TensorDotLastAxisTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(TensorDotLastAxis);
}  // namespace ops
