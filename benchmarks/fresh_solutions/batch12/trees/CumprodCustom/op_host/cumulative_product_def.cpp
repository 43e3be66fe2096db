// CumulativeProduct: running product along one axis.
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus CumulativeProductTilingFunc(gert::TilingContext *context);
}

namespace ge {
static graphStatus CumulativeProductInferShape(gert::InferShapeContext *ctx)
{
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static graphStatus CumulativeProductInferDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class CumulativeProduct : public OpDef {
public:
    explicit CumulativeProduct(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("dim").AttrType(REQUIRED).Int();

        this->SetInferShape(ge::CumulativeProductInferShape).SetInferDataType(ge::CumulativeProductInferDtype);
        this->AICore().SetTiling(optiling::CumulativeProductTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(CumulativeProduct);
}  // namespace ops
