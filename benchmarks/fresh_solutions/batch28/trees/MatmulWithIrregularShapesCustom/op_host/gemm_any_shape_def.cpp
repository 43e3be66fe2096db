#include "gemm_any_shape_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus GemmAnyShapeInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *a = ctx->GetInputShape(0);
    const gert::Shape *b = ctx->GetInputShape(1);
    gert::Shape *c = ctx->GetOutputShape(0);
    if (a == nullptr || b == nullptr || c == nullptr || a->GetDimNum() != 2 || b->GetDimNum() != 2) {
        return GRAPH_FAILED;
    }
    c->SetDimNum(2);
    c->SetDim(0, a->GetDim(0));
    c->SetDim(1, b->GetDim(1));
    return GRAPH_SUCCESS;
}

static graphStatus GemmAnyShapeInferDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ge::DT_FLOAT);
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class GemmAnyShape : public OpDef {
public:
    explicit GemmAnyShape(const char *name) : OpDef(name)
    {
        this->Input("a")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("b")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("c")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::GemmAnyShapeInferShape).SetInferDataType(ge::GemmAnyShapeInferDtype);
        this->AICore().SetTiling(optiling::GemmAnyShapeTiling);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(GemmAnyShape);
}  // namespace ops
