#include "resize3d_trilinear_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus Resize3dTrilinearInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *xs = context->GetInputShape(0);
    gert::Shape *ys = context->GetOutputShape(0);
    if (xs == nullptr || xs->GetDimNum() != 5) {
        return GRAPH_FAILED;
    }
    const gert::ContinuousVector *scaleVec = context->GetAttrs()->GetAttrPointer<gert::ContinuousVector>(0);
    const float *sv = reinterpret_cast<const float *>(scaleVec->GetData());
    *ys = *xs;
    for (size_t i = 0; i < 3; ++i) {
        ys->SetDim(i + 2, static_cast<int64_t>(static_cast<float>(xs->GetDim(i + 2)) * sv[i]));
    }
    return GRAPH_SUCCESS;
}

static graphStatus Resize3dTrilinearInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class Resize3dTrilinear : public OpDef {
public:
    explicit Resize3dTrilinear(const char *name) : OpDef(name)
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
        this->Attr("scales").AttrType(OPTIONAL).ListFloat({2.0f, 2.0f, 2.0f});
        this->Attr("align_corners").AttrType(OPTIONAL).Bool(true);

        this->SetInferShape(ge::Resize3dTrilinearInferShape).SetInferDataType(ge::Resize3dTrilinearInferDtype);
        this->AICore().SetTiling(optiling::Resize3dTrilinearTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Resize3dTrilinear);
} // namespace ops
