/**
 * @file deconvolution2d_def.cpp
 * @brief Operator prototype of Deconvolution2d (transposed convolution, a.k.a. fractionally
 *        strided convolution), NCHW fp32, weight layout [C_in, C_out/groups, kH, kW].
 */
#include "deconvolution2d_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static int64_t DeconvAttrAt(const gert::TypedContinuousVector<int64_t>* v, size_t i, int64_t dflt)
{
    if (v == nullptr || v->GetSize() == 0) {
        return dflt;
    }
    return (i < v->GetSize()) ? v->GetData()[i] : v->GetData()[v->GetSize() - 1];
}

static ge::graphStatus Deconvolution2dInferShape(gert::InferShapeContext* context)
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
    const auto* outPads = attrs->GetListInt(2);
    const auto* dilations = attrs->GetListInt(3);
    const int64_t* groups = attrs->GetAttrPointer<int64_t>(4);
    const int64_t g = (groups != nullptr && *groups > 0) ? *groups : 1;
    const int64_t sh = DeconvAttrAt(strides, 0, 1), sw = DeconvAttrAt(strides, 1, 1);
    const int64_t ph = DeconvAttrAt(pads, 0, 0), pw = DeconvAttrAt(pads, 1, 0);
    const int64_t oph = DeconvAttrAt(outPads, 0, 0), opw = DeconvAttrAt(outPads, 1, 0);
    const int64_t dh = DeconvAttrAt(dilations, 0, 1), dw = DeconvAttrAt(dilations, 1, 1);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1) * g);
    y->SetDim(2, (x->GetDim(2) - 1) * sh - 2 * ph + dh * (w->GetDim(2) - 1) + oph + 1);
    y->SetDim(3, (x->GetDim(3) - 1) * sw - 2 * pw + dw * (w->GetDim(3) - 1) + opw + 1);
    return GRAPH_SUCCESS;
}

static ge::graphStatus Deconvolution2dInferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class Deconvolution2d : public OpDef {
public:
    explicit Deconvolution2d(const char* name) : OpDef(name)
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
        this->Attr("output_padding").AttrType(OPTIONAL).ListInt({0, 0});
        this->Attr("dilations").AttrType(OPTIONAL).ListInt({1, 1});
        this->Attr("groups").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::Deconvolution2dInferShape).SetInferDataType(ge::Deconvolution2dInferDataType);

        this->AICore().SetTiling(optiling::Deconvolution2dTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(Deconvolution2d);
} // namespace ops
