#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus SelectiveScanFinalStateTiling(gert::TilingContext *context);
}

namespace ge {
// out[b, h, p, n] : final SSM state for every (batch, head)
static ge::graphStatus SelectiveScanFinalStateInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *bm = context->GetInputShape(2);
    gert::Shape *out = context->GetOutputShape(0);
    out->SetDimNum(4);
    out->SetDim(0, x->GetDim(0));
    out->SetDim(1, x->GetDim(2));
    out->SetDim(2, x->GetDim(3));
    out->SetDim(3, bm->GetDim(3));
    return GRAPH_SUCCESS;
}

static ge::graphStatus SelectiveScanFinalStateInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class SelectiveScanFinalState : public OpDef {
public:
    explicit SelectiveScanFinalState(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("a_log_decay")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("b_proj")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("final_state")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::SelectiveScanFinalStateInferShape)
            .SetInferDataType(ge::SelectiveScanFinalStateInferDtype);
        this->AICore().SetTiling(optiling::SelectiveScanFinalStateTiling);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(SelectiveScanFinalState);
} // namespace ops
