/**
 * @file nearest_resize2d_def.cpp
 * @brief Operator prototype of NearestResize2d: nearest-neighbour scaling of the last two dims.
 */
#include <cmath>
#include "nearest_resize2d_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static ge::graphStatus NearestResize2dInferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    gert::Shape* y = context->GetOutputShape(0);
    if (x == nullptr || y == nullptr || x->GetDimNum() < 2) {
        return GRAPH_FAILED;
    }
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    const float* sh = attrs->GetAttrPointer<float>(0);
    const float* sw = attrs->GetAttrPointer<float>(1);
    if (sh == nullptr || sw == nullptr || *sh <= 0.0f || *sw <= 0.0f) {
        return GRAPH_FAILED;
    }
    const size_t rank = x->GetDimNum();
    *y = *x;
    y->SetDim(rank - 2, static_cast<int64_t>(std::floor(static_cast<double>(x->GetDim(rank - 2)) * (*sh))));
    y->SetDim(rank - 1, static_cast<int64_t>(std::floor(static_cast<double>(x->GetDim(rank - 1)) * (*sw))));
    return GRAPH_SUCCESS;
}

static ge::graphStatus NearestResize2dInferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class NearestResize2d : public OpDef {
public:
    explicit NearestResize2d(const char* name) : OpDef(name)
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

        this->Attr("scale_h").AttrType(OPTIONAL).Float(2.0f);
        this->Attr("scale_w").AttrType(OPTIONAL).Float(2.0f);

        this->SetInferShape(ge::NearestResize2dInferShape).SetInferDataType(ge::NearestResize2dInferDataType);

        this->AICore().SetTiling(optiling::NearestResize2dTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(NearestResize2d);
} // namespace ops
