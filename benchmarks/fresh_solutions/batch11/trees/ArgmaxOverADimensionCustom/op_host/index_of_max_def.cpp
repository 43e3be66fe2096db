#include "index_of_max_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus IndexOfMaxInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    int64_t dim = *ctx->GetAttrs()->GetAttrPointer<int64_t>(0);
    const int64_t rank = static_cast<int64_t>(x->GetDimNum());
    if (dim < 0) dim += rank;
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(0);
    for (int64_t i = 0; i < rank; ++i) {
        if (i != dim) y->AppendDim(x->GetDim(i));
    }
    return GRAPH_SUCCESS;
}
static graphStatus IndexOfMaxInferType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ge::DT_INT64);
    return GRAPH_SUCCESS;
}
}

namespace ops {
class IndexOfMax : public OpDef {
public:
    explicit IndexOfMax(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("indices").ParamType(REQUIRED)
            .DataType({ge::DT_INT64, ge::DT_INT64})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("dim").Int();

        this->SetInferShape(ge::IndexOfMaxInferShape).SetInferDataType(ge::IndexOfMaxInferType);
        this->AICore().SetTiling(optiling::IndexOfMaxTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(IndexOfMax);
}
