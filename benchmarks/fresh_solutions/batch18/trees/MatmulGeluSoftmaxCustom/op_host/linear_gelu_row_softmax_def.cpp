#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus LinearGeluRowSoftmaxTiling(gert::TilingContext *context);
}

namespace ge {
static graphStatus InferLinearGeluRowSoftmaxShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    gert::Shape *out = context->GetOutputShape(0);
    *out = *x;
    out->SetDim(x->GetDimNum() - 1, w->GetDim(0));
    return GRAPH_SUCCESS;
}
static graphStatus InferLinearGeluRowSoftmaxType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, ge::DT_FLOAT);
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class LinearGeluRowSoftmax : public OpDef {
public:
    explicit LinearGeluRowSoftmax(const char *name) : OpDef(name)
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

        this->SetInferShape(ge::InferLinearGeluRowSoftmaxShape)
            .SetInferDataType(ge::InferLinearGeluRowSoftmaxType);
        this->AICore().SetTiling(optiling::LinearGeluRowSoftmaxTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(LinearGeluRowSoftmax);
}  // namespace ops
