#include "gemm_nt_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static ge::graphStatus GemmNtInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *a = context->GetInputShape(0);
    const gert::Shape *b = context->GetInputShape(1);
    gert::Shape *c = context->GetOutputShape(0);
    c->SetDimNum(2);
    c->SetDim(0, a->GetDim(0));
    c->SetDim(1, b->GetDim(0));
    return GRAPH_SUCCESS;
}
static ge::graphStatus GemmNtInferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class GemmNt : public OpDef {
public:
    explicit GemmNt(const char *name) : OpDef(name)
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

        this->SetInferShape(ge::GemmNtInferShape).SetInferDataType(ge::GemmNtInferDataType);
        this->AICore().SetTiling(optiling::GemmNtTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(GemmNt);
}
