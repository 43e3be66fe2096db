// DilatedConv2d: NCHW 2-D convolution with independent (h, w) stride, zero padding and dilation.
#include "dilated_conv2d_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus DilatedConv2dTilingFunc(gert::TilingContext *context);
}

namespace ge {
static void ReadPair(const gert::RuntimeAttrs *attrs, size_t idx, int64_t dflt, int64_t &a, int64_t &b)
{
    a = b = dflt;
    const gert::ContinuousVector *v = attrs->GetListInt(idx);
    if (v != nullptr && v->GetSize() > 0) {
        const int64_t *d = reinterpret_cast<const int64_t *>(v->GetData());
        a = d[0];
        b = v->GetSize() > 1 ? d[1] : d[0];
    }
}

static graphStatus DilatedConv2dInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    gert::Shape *y = context->GetOutputShape(0);
    const auto *attrs = context->GetAttrs();
    int64_t sh, sw, ph, pw, dh, dw;
    ReadPair(attrs, 0, 1, sh, sw);
    ReadPair(attrs, 1, 0, ph, pw);
    ReadPair(attrs, 2, 1, dh, dw);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    y->SetDim(2, (x->GetDim(2) + 2 * ph - dh * (w->GetDim(2) - 1) - 1) / sh + 1);
    y->SetDim(3, (x->GetDim(3) + 2 * pw - dw * (w->GetDim(3) - 1) - 1) / sw + 1);
    return GRAPH_SUCCESS;
}

static graphStatus DilatedConv2dInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class DilatedConv2d : public OpDef {
public:
    explicit DilatedConv2d(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("filter").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("bias").ParamType(OPTIONAL)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("strides").AttrType(OPTIONAL).ListInt({1, 1});
        this->Attr("pads").AttrType(OPTIONAL).ListInt({0, 0});
        this->Attr("dilations").AttrType(OPTIONAL).ListInt({1, 1});

        this->SetInferShape(ge::DilatedConv2dInferShape).SetInferDataType(ge::DilatedConv2dInferDtype);
        this->AICore().SetTiling(optiling::DilatedConv2dTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(DilatedConv2d);
}  // namespace ops
