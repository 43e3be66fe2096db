#include "broadcast_maximum_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus BroadcastMaximumInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *a = ctx->GetInputShape(0);
    const gert::Shape *b = ctx->GetInputShape(1);
    gert::Shape *y = ctx->GetOutputShape(0);
    size_t ra = a->GetDimNum(), rb = b->GetDimNum();
    size_t rank = ra > rb ? ra : rb;
    y->SetDimNum(rank);
    for (size_t i = 0; i < rank; ++i) {
        int64_t va = (i + ra >= rank) ? a->GetDim(i + ra - rank) : 1;
        int64_t vb = (i + rb >= rank) ? b->GetDim(i + rb - rank) : 1;
        if (va != vb && va != 1 && vb != 1) {
            return GRAPH_FAILED;
        }
        y->SetDim(i, va > vb ? va : vb);
    }
    return GRAPH_SUCCESS;
}
static graphStatus BroadcastMaximumInferDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class BroadcastMaximum : public OpDef {
public:
    explicit BroadcastMaximum(const char *name) : OpDef(name)
    {
        this->Input("a")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("b")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::BroadcastMaximumInferShape).SetInferDataType(ge::BroadcastMaximumInferDtype);
        this->AICore().SetTiling(optiling::BroadcastMaximumTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(BroadcastMaximum);
}
