#include "locate_min_along_axis_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus LocateMinShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *in = ctx->GetInputShape(0);
    gert::Shape *out = ctx->GetOutputShape(0);
    int64_t rank = static_cast<int64_t>(in->GetDimNum());
    int64_t axis = *ctx->GetAttrs()->GetAttrPointer<int64_t>(0);
    axis = axis < 0 ? axis + rank : axis;
    if (axis < 0 || axis >= rank) {
        return GRAPH_FAILED;
    }
    out->SetDimNum(0);
    for (int64_t i = 0; i < rank; ++i) {
        if (i != axis) {
            out->AppendDim(in->GetDim(i));
        }
    }
    return GRAPH_SUCCESS;
}
static graphStatus LocateMinDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, DT_INT64);
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class LocateMinAlongAxis : public OpDef {
public:
    explicit LocateMinAlongAxis(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("indices")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT64, ge::DT_INT64})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("dim").AttrType(REQUIRED).Int();

        this->SetInferShape(ge::LocateMinShape).SetInferDataType(ge::LocateMinDtype);
        this->AICore().SetTiling(optiling::LocateMinAlongAxisTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(LocateMinAlongAxis);
}  // namespace ops
