#include "register/op_def_registry.h"
#include "axis_min_tiling.h"

namespace optiling {
ge::graphStatus AxisMinTiling(gert::TilingContext *context);
}

namespace ge {
static graphStatus AxisMinInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *in = context->GetInputShape(0);
    gert::Shape *out = context->GetOutputShape(0);
    int64_t rank = static_cast<int64_t>(in->GetDimNum());
    int64_t dim = *context->GetAttrs()->GetAttrPointer<int64_t>(0);
    if (dim < 0) dim += rank;
    out->SetDimNum(0);
    for (int64_t i = 0; i < rank; ++i) {
        if (i != dim) {
            out->AppendDim(in->GetDim(i));
        }
    }
    return GRAPH_SUCCESS;
}

static graphStatus AxisMinInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class AxisMin : public OpDef {
public:
    explicit AxisMin(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("dim").Int();

        this->SetInferShape(ge::AxisMinInferShape).SetInferDataType(ge::AxisMinInferDtype);
        this->AICore().SetTiling(optiling::AxisMinTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(AxisMin);
}  // namespace ops
