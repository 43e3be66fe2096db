/**
 * @file conv2d_cap_bias_scale_def.cpp
 * @brief Operator prototype of Conv2dCapBiasScale.
 *
 *   y[n, o, i, j] = (min(conv2d(x, weight)[n, o, i, j] + conv_bias[o], cap) + channel_bias[o]) * scale
 */
#include "conv2d_cap_bias_scale_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static int64_t AttrListAt(const gert::TypedContinuousVector<int64_t>* v, size_t i, int64_t dflt)
{
    if (v == nullptr || v->GetSize() == 0) {
        return dflt;
    }
    return (i < v->GetSize()) ? v->GetData()[i] : v->GetData()[v->GetSize() - 1];
}

static ge::graphStatus Conv2dCapBiasScaleInferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    const gert::Shape* w = context->GetInputShape(1);
    gert::Shape* y = context->GetOutputShape(0);
    if (x == nullptr || w == nullptr || y == nullptr || x->GetDimNum() != 4 || w->GetDimNum() != 4) {
        return GRAPH_FAILED;
    }
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    const auto* strides = attrs->GetListInt(2);
    const auto* pads = attrs->GetListInt(3);
    const int64_t sh = AttrListAt(strides, 0, 1), sw = AttrListAt(strides, 1, 1);
    const int64_t ph = AttrListAt(pads, 0, 0), pw = AttrListAt(pads, 1, 0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    y->SetDim(2, (x->GetDim(2) + 2 * ph - w->GetDim(2)) / sh + 1);
    y->SetDim(3, (x->GetDim(3) + 2 * pw - w->GetDim(3)) / sw + 1);
    return GRAPH_SUCCESS;
}

static ge::graphStatus Conv2dCapBiasScaleInferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class Conv2dCapBiasScale : public OpDef {
public:
    explicit Conv2dCapBiasScale(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("conv_bias")
            .ParamType(OPTIONAL)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("channel_bias")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->Attr("cap").AttrType(REQUIRED).Float();
        this->Attr("scale").AttrType(OPTIONAL).Float(1.0f);
        this->Attr("strides").AttrType(OPTIONAL).ListInt({1, 1});
        this->Attr("pads").AttrType(OPTIONAL).ListInt({0, 0});

        this->SetInferShape(ge::Conv2dCapBiasScaleInferShape)
            .SetInferDataType(ge::Conv2dCapBiasScaleInferDataType);

        this->AICore().SetTiling(optiling::Conv2dCapBiasScaleTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(Conv2dCapBiasScale);
} // namespace ops
