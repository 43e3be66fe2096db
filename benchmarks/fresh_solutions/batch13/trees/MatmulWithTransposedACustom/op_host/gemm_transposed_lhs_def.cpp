#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus GemmTransposedLhsTiling(gert::TilingContext *context);
}

namespace ge {
static graphStatus GemmTransposedLhsInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);   // a (K, M)
    const gert::Shape *w = context->GetInputShape(1);   // b (K, N)
    gert::Shape *y = context->GetOutputShape(0);
    y->SetDimNum(2);
    y->SetDim(0, x->GetDim(1));
    y->SetDim(1, w->GetDim(1));
    return GRAPH_SUCCESS;
}

static graphStatus GemmTransposedLhsInferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class GemmTransposedLhs : public OpDef {
public:
    explicit GemmTransposedLhs(const char *name) : OpDef(name)
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

        this->SetInferShape(ge::GemmTransposedLhsInferShape).SetInferDataType(ge::GemmTransposedLhsInferDataType);
        this->AICore().SetTiling(optiling::GemmTransposedLhsTiling);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(GemmTransposedLhs);
} // namespace ops
