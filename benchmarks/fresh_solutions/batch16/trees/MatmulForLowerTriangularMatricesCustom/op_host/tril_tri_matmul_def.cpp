/*!
 * \file tril_tri_matmul_def.cpp
 * \brief OpDef of TrilTriMatmul
 */
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus TrilTriMatmulTilingFunc(gert::TilingContext *context);
}

namespace ge {
static ge::graphStatus TrilTriMatmulInferShape(gert::InferShapeContext *context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus TrilTriMatmulInferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class TrilTriMatmul : public OpDef {
public:
    explicit TrilTriMatmul(const char *name) : OpDef(name)
    {
        this->Input("a").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("c").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::TrilTriMatmulInferShape).SetInferDataType(ge::TrilTriMatmulInferDataType);
        this->AICore().SetTiling(optiling::TrilTriMatmulTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(TrilTriMatmul);
}  // namespace ops
