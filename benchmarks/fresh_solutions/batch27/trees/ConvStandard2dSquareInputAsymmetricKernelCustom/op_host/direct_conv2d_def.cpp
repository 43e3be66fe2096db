/**
 * @file direct_conv2d_def.cpp
 * @brief Operator prototype of DirectConv2d: y = conv2d(x, weight) (+ bias), NCHW, fp32.
 */
#include "direct_conv2d_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static int64_t ConvAttrAt(const gert::TypedContinuousVector<int64_t>* v, size_t i, int64_t dflt)
{
    if (v == nullptr || v->GetSize() == 0) {
        return dflt;
    }
    return (i < v->GetSize()) ? v->GetData()[i] : v->GetData()[v->GetSize() - 1];
}

static ge::graphStatus DirectConv2dInferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    const gert::Shape* w = context->GetInputShape(1);
    gert::Shape* y = context->GetOutputShape(0);
    if (x == nullptr || w == nullptr || y == nullptr || x->GetDimNum() != 4 || w->GetDimNum() != 4) {
        return GRAPH_FAILED;
    }
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    const auto* strides = attrs->GetListInt(0);
    const auto* pads = attrs->GetListInt(1);
    const auto* dilations = attrs->GetListInt(2);
    const int64_t sh = ConvAttrAt(strides, 0, 1), sw = ConvAttrAt(strides, 1, 1);
    const int64_t ph = ConvAttrAt(pads, 0, 0), pw = ConvAttrAt(pads, 1, 0);
    const int64_t dh = ConvAttrAt(dilations, 0, 1), dw = ConvAttrAt(dilations, 1, 1);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    y->SetDim(2, (x->GetDim(2) + 2 * ph - dh * (w->GetDim(2) - 1) - 1) / sh + 1);
    y->SetDim(3, (x->GetDim(3) + 2 * pw - dw * (w->GetDim(3) - 1) - 1) / sw + 1);
    return GRAPH_SUCCESS;
}

static ge::graphStatus DirectConv2dInferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class DirectConv2d : public OpDef {
public:
    explicit DirectConv2d(const char* name) : OpDef(name)
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
        this->Input("bias")
            .ParamType(OPTIONAL)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->Attr("strides").AttrType(OPTIONAL).ListInt({1, 1});
        this->Attr("pads").AttrType(OPTIONAL).ListInt({0, 0});
        this->Attr("dilations").AttrType(OPTIONAL).ListInt({1, 1});
        this->Attr("groups").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::DirectConv2dInferShape).SetInferDataType(ge::DirectConv2dInferDataType);

        this->AICore().SetTiling(optiling::DirectConv2dTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(DirectConv2d);
} // namespace ops
