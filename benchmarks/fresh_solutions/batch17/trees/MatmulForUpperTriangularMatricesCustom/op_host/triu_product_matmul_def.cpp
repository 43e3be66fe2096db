#include "register/op_def_registry.h"
#include "triu_product_matmul_tiling.h"

namespace optiling {
ge::graphStatus TriuProductMatmulTiling(gert::TilingContext *context);
}

namespace ge {
static graphStatus TriuProductInferShape(gert::InferShapeContext *context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}

static graphStatus TriuProductInferType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class TriuProductMatmul : public OpDef {
public:
    explicit TriuProductMatmul(const char *name) : OpDef(name)
    {
        this->Input("a")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("b")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("c")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::TriuProductInferShape).SetInferDataType(ge::TriuProductInferType);
        this->AICore().SetTiling(optiling::TriuProductMatmulTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(TriuProductMatmul);
}  // namespace ops
