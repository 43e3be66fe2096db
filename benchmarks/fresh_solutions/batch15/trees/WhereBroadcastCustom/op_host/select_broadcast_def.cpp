#include "select_broadcast_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
// numpy-style broadcast of the three operand shapes
static graphStatus SelectBroadcastInferShape(gert::InferShapeContext* ctx)
{
    const gert::Shape* in[3] = {ctx->GetInputShape(0), ctx->GetInputShape(1), ctx->GetInputShape(2)};
    size_t rank = 0;
    for (auto* s : in) rank = s->GetDimNum() > rank ? s->GetDimNum() : rank;
    gert::Shape* out = ctx->GetOutputShape(0);
    out->SetDimNum(rank);
    for (size_t i = 0; i < rank; ++i) {
        int64_t d = 1;
        for (auto* s : in) {
            int64_t off = static_cast<int64_t>(i) - static_cast<int64_t>(rank - s->GetDimNum());
            if (off < 0) continue;
            int64_t v = s->GetDim(off);
            if (v == 1) continue;
            if (d != 1 && d != v) return GRAPH_FAILED;
            d = v;
        }
        out->SetDim(i, d);
    }
    return GRAPH_SUCCESS;
}

static graphStatus SelectBroadcastInferDtype(gert::InferDataTypeContext* ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(1));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class SelectBroadcast : public OpDef {
public:
    explicit SelectBroadcast(const char* name) : OpDef(name)
    {
        this->Input("condition").ParamType(REQUIRED)
            .DataType({ge::DT_BOOL, ge::DT_BOOL})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::SelectBroadcastInferShape).SetInferDataType(ge::SelectBroadcastInferDtype);
        this->AICore().SetTiling(optiling::SelectBroadcastTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(SelectBroadcast);
}  // namespace ops
