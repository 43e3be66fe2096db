#include "axis_mean_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus AxisMeanInferShape(gert::InferShapeContext* ctx)
{
    const gert::Shape* in = ctx->GetInputShape(0);
    gert::Shape* out = ctx->GetOutputShape(0);
    int64_t rank = static_cast<int64_t>(in->GetDimNum());
    int64_t dim = *ctx->GetAttrs()->GetAttrPointer<int64_t>(0);
    if (dim < 0) dim += rank;
    if (dim < 0 || dim >= rank) return GRAPH_FAILED;
    out->SetDimNum(0);
    for (int64_t i = 0; i < rank; ++i) {
        if (i != dim) out->AppendDim(in->GetDim(i));
    }
    return GRAPH_SUCCESS;
}

static graphStatus AxisMeanInferDtype(gert::InferDataTypeContext* ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class AxisMean : public OpDef {
public:
    explicit AxisMean(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("dim").AttrType(REQUIRED).Int();

        this->SetInferShape(ge::AxisMeanInferShape).SetInferDataType(ge::AxisMeanInferDtype);
        this->AICore().SetTiling(optiling::AxisMeanTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(AxisMean);
}  // namespace ops
