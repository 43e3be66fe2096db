#include "running_product_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus RunningProductInferShape(gert::InferShapeContext *ctx)
{
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static graphStatus RunningProductInferType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class RunningProduct : public OpDef {
public:
    explicit RunningProduct(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("axis").AttrType(REQUIRED).Int();

        this->SetInferShape(ge::RunningProductInferShape).SetInferDataType(ge::RunningProductInferType);
        this->AICore().SetTiling(optiling::RunningProductTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(RunningProduct);
}
