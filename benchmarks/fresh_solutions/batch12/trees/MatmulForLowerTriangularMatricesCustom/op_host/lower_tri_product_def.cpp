#include "lower_tri_product_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus LowerTriProductTilingFunc(gert::TilingContext* ctx);
}

namespace ge {
static graphStatus LowerTriProductInferShape(gert::InferShapeContext* ctx)
{
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static graphStatus LowerTriProductInferDataType(gert::InferDataTypeContext* ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class LowerTriProduct : public OpDef {
public:
    explicit LowerTriProduct(const char* name) : OpDef(name)
    {
        this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("c").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::LowerTriProductInferShape).SetInferDataType(ge::LowerTriProductInferDataType);
        this->AICore().SetTiling(optiling::LowerTriProductTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(LowerTriProduct);
}  // namespace ops
