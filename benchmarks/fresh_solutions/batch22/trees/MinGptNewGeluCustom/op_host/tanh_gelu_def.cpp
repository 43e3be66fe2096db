#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus TanhGeluTilingFunc(gert::TilingContext *context);
}

namespace ops {
static ge::graphStatus TanhGeluShape(gert::InferShapeContext *context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return ge::GRAPH_SUCCESS;
}
static ge::graphStatus TanhGeluDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}

class TanhGelu : public OpDef {
public:
    explicit TanhGelu(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(TanhGeluShape).SetInferDataType(TanhGeluDtype);
        this->AICore().SetTiling(optiling::TanhGeluTilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend310p");
    }
};
OP_ADD(TanhGelu);
}
