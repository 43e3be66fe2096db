#include "conv_pos_hard_swish_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus ConvPosHardSwishTilingFunc(gert::TilingContext* context);
}

namespace ge {
static ge::graphStatus ConvPosHardSwishInferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    const gert::Shape* w = context->GetInputShape(1);
    gert::Shape* y = context->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    y->SetDim(2, x->GetDim(2) - w->GetDim(2) + 1);
    y->SetDim(3, x->GetDim(3) - w->GetDim(3) + 1);
    return GRAPH_SUCCESS;
}

static ge::graphStatus ConvPosHardSwishInferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class ConvPosHardSwish : public OpDef {
public:
    explicit ConvPosHardSwish(const char* name) : OpDef(name)
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

        this->SetInferShape(ge::ConvPosHardSwishInferShape)
            .SetInferDataType(ge::ConvPosHardSwishInferDataType);
        this->AICore().SetTiling(optiling::ConvPosHardSwishTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ConvPosHardSwish);
}  // namespace ops
