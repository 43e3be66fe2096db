#include "register/op_def_registry.h"

namespace optiling {
extern ge::graphStatus SymmetricProductMatmulTilingFunc(gert::TilingContext *context);
}

namespace ge {
static graphStatus SymmetricProductMatmulInferShape(gert::InferShapeContext *context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}

static graphStatus SymmetricProductMatmulInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class SymmetricProductMatmul : public OpDef {
public:
    explicit SymmetricProductMatmul(const char *name) : OpDef(name)
    {
        this->Input("a")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("b")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("c")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("b_symmetric").AttrType(OPTIONAL).Bool(true);

        this->SetInferShape(ge::SymmetricProductMatmulInferShape)
            .SetInferDataType(ge::SymmetricProductMatmulInferDtype);
        this->AICore().SetTiling(optiling::SymmetricProductMatmulTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(SymmetricProductMatmul);
}  // namespace ops
