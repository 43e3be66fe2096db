#include "register/op_def_registry.h"

namespace ops {
ge::graphStatus DenseBiasRectifyTiling(gert::TilingContext *context);

static ge::graphStatus DenseBiasRectifyShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    gert::Shape *y = context->GetOutputShape(0);
    y->SetDimNum(2);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    return ge::GRAPH_SUCCESS;
}

static ge::graphStatus DenseBiasRectifyType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}

class DenseBiasRectify : public OpDef {
public:
    explicit DenseBiasRectify(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("weight")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("bias")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(DenseBiasRectifyShape).SetInferDataType(DenseBiasRectifyType);
        this->AICore().SetTiling(DenseBiasRectifyTiling);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(DenseBiasRectify);
} // namespace ops
