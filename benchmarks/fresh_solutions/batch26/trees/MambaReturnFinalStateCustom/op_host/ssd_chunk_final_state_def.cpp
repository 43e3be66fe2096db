#include "register/op_def_registry.h"

namespace optiling {
extern ge::graphStatus SsdChunkFinalStateTilingFunc(gert::TilingContext *context);
}

namespace ge {
static graphStatus SsdChunkFinalStateInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);   // [B, L, H, P]
    const gert::Shape *b = context->GetInputShape(2);   // [B, L, H, N]
    gert::Shape *y = context->GetOutputShape(0);        // [B, H, P, N]
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, x->GetDim(2));
    y->SetDim(2, x->GetDim(3));
    y->SetDim(3, b->GetDim(3));
    return GRAPH_SUCCESS;
}

static graphStatus SsdChunkFinalStateInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class SsdChunkFinalState : public OpDef {
public:
    explicit SsdChunkFinalState(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("a_log")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("b_proj")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("init_state")
            .ParamType(OPTIONAL)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("final_state")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("chunk_len").AttrType(OPTIONAL).Int(64);

        this->SetInferShape(ge::SsdChunkFinalStateInferShape)
            .SetInferDataType(ge::SsdChunkFinalStateInferDtype);
        this->AICore().SetTiling(optiling::SsdChunkFinalStateTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(SsdChunkFinalState);
} // namespace ops
