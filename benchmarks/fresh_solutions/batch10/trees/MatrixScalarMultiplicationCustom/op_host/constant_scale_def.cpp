#include "constant_scale_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus ConstantScaleTilingFunc(gert::TilingContext* context);
}

namespace ge {
static graphStatus ConstantScaleInferShape(gert::InferShapeContext* ctx)
{
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static graphStatus ConstantScaleInferDataType(gert::InferDataTypeContext* ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class ConstantScale : public OpDef {
public:
    explicit ConstantScale(const char* name) : OpDef(name)
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
        this->Attr("value").AttrType(REQUIRED).Float();

        this->SetInferShape(ge::ConstantScaleInferShape).SetInferDataType(ge::ConstantScaleInferDataType);
        this->AICore().SetTiling(optiling::ConstantScaleTilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend310p");
    }
};
OP_ADD(ConstantScale);
}  // namespace ops
