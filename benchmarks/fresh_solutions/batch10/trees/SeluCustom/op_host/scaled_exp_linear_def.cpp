#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus ScaledExpLinearTilingFunc(gert::TilingContext *context);
}

namespace ge {
static ge::graphStatus ScaledExpLinearInferShape(gert::InferShapeContext *context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus ScaledExpLinearInferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class ScaledExpLinear : public OpDef {
public:
    explicit ScaledExpLinear(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("alpha").AttrType(OPTIONAL).Float(1.6732632423543772f);
        this->Attr("scale").AttrType(OPTIONAL).Float(1.0507009873554805f);

        this->SetInferShape(ge::ScaledExpLinearInferShape).SetInferDataType(ge::ScaledExpLinearInferDataType);
        this->AICore().SetTiling(optiling::ScaledExpLinearTilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend310p");
    }
};
OP_ADD(ScaledExpLinear);
}  // namespace ops
