#include "bcast_product_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus BcastProductInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *a = ctx->GetInputShape(0);
    const gert::Shape *b = ctx->GetInputShape(1);
    gert::Shape *out = ctx->GetOutputShape(0);
    size_t ra = a->GetDimNum();
    size_t rb = b->GetDimNum();
    size_t rank = ra > rb ? ra : rb;
    out->SetDimNum(rank);
    for (size_t i = 0; i < rank; ++i) {
        int64_t va = (i + ra >= rank) ? a->GetDim(i + ra - rank) : 1;
        int64_t vb = (i + rb >= rank) ? b->GetDim(i + rb - rank) : 1;
        if (va != vb && va != 1 && vb != 1) {
            return GRAPH_FAILED;
        }
        out->SetDim(i, va == 1 ? vb : va);
    }
    return GRAPH_SUCCESS;
}

static graphStatus BcastProductInferDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class BcastProduct : public OpDef {
public:
    explicit BcastProduct(const char *name) : OpDef(name)
    {
        this->Input("a")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("b")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::BcastProductInferShape).SetInferDataType(ge::BcastProductInferDtype);
        this->AICore().SetTiling(optiling::BcastProductTilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend310p");
    }
};
OP_ADD(BcastProduct);
} // namespace ops
