#include "sloped_rectifier_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus SlopedRectifierTilingFunc(gert::TilingContext* ctx);
}

namespace ge {
static graphStatus SlopedRectifierInferShape(gert::InferShapeContext* ctx)
{
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static graphStatus SlopedRectifierInferDataType(gert::InferDataTypeContext* ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class SlopedRectifier : public OpDef {
public:
    explicit SlopedRectifier(const char* name) : OpDef(name)
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
        this->Attr("negative_slope").AttrType(OPTIONAL).Float(0.01f);

        this->SetInferShape(ge::SlopedRectifierInferShape).SetInferDataType(ge::SlopedRectifierInferDataType);
        this->AICore().SetTiling(optiling::SlopedRectifierTilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend310p");
    }
};
OP_ADD(SlopedRectifier);
}  // namespace ops
