#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus BoundedLinearClipTiling(gert::TilingContext *ctx);
}

namespace ge {
static graphStatus BoundedLinearClipShape(gert::InferShapeContext *ctx)
{
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static graphStatus BoundedLinearClipType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class BoundedLinearClip : public OpDef {
public:
    explicit BoundedLinearClip(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("min_val").AttrType(OPTIONAL).Float(-1.0f);
        this->Attr("max_val").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::BoundedLinearClipShape).SetInferDataType(ge::BoundedLinearClipType);
        this->AICore().SetTiling(optiling::BoundedLinearClipTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(BoundedLinearClip);
} // namespace ops
