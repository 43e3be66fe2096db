#include "linear_bias_act_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus LinearBiasActInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    gert::Shape *y = context->GetOutputShape(0);
    *y = *x;
    y->SetDim(x->GetDimNum() - 1, w->GetDim(0));
    return GRAPH_SUCCESS;
}

static graphStatus LinearBiasActInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class LinearBiasAct : public OpDef {
public:
    explicit LinearBiasAct(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("weight")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("bias")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("apply_relu").AttrType(OPTIONAL).Bool(true);

        this->SetInferShape(ge::LinearBiasActInferShape).SetInferDataType(ge::LinearBiasActInferDtype);
        this->AICore().SetTiling(optiling::LinearBiasActTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(LinearBiasAct);
} // namespace ops
