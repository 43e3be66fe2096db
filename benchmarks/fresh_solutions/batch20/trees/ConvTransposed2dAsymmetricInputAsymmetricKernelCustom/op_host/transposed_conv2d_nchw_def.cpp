#include "transposed_conv2d_nchw_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus TransposedConv2dNchwTilingFunc(gert::TilingContext *context);
}

namespace ge {
static int64_t PairAt(const gert::RuntimeAttrs *attrs, size_t idx, size_t pos, int64_t dflt)
{
    auto *vec = attrs->GetAttrPointer<gert::ContinuousVector>(idx);
    if (vec == nullptr || vec->GetSize() == 0) {
        return dflt;
    }
    const int64_t *d = reinterpret_cast<const int64_t *>(vec->GetData());
    return vec->GetSize() > pos ? d[pos] : d[0];
}

static graphStatus TransposedConv2dNchwInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    const int64_t *gPtr = attrs->GetAttrPointer<int64_t>(4);
    int64_t groups = (gPtr == nullptr || *gPtr <= 0) ? 1 : *gPtr;

    int64_t out[2];
    for (size_t i = 0; i < 2; ++i) {
        int64_t in = x->GetDim(2 + i);
        int64_t k = w->GetDim(2 + i);
        int64_t s = PairAt(attrs, 0, i, 1);
        int64_t p = PairAt(attrs, 1, i, 0);
        int64_t op = PairAt(attrs, 2, i, 0);
        int64_t d = PairAt(attrs, 3, i, 1);
        out[i] = (in - 1) * s - 2 * p + d * (k - 1) + op + 1;
    }
    gert::Shape *y = context->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1) * groups);
    y->SetDim(2, out[0]);
    y->SetDim(3, out[1]);
    return GRAPH_SUCCESS;
}

static graphStatus TransposedConv2dNchwInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class TransposedConv2dNchw : public OpDef {
public:
    explicit TransposedConv2dNchw(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW})
            .UnknownShapeFormat({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        // weight layout follows the deconvolution convention [Cin, Cout/groups, Kh, Kw]
        this->Input("weight")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW})
            .UnknownShapeFormat({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        this->Input("bias")
            .ParamType(OPTIONAL)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW})
            .UnknownShapeFormat({ge::FORMAT_NCHW, ge::FORMAT_NCHW});

        this->Attr("stride").AttrType(OPTIONAL).ListInt({1, 1});
        this->Attr("padding").AttrType(OPTIONAL).ListInt({0, 0});
        this->Attr("output_padding").AttrType(OPTIONAL).ListInt({0, 0});
        this->Attr("dilation").AttrType(OPTIONAL).ListInt({1, 1});
        this->Attr("groups").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::TransposedConv2dNchwInferShape)
            .SetInferDataType(ge::TransposedConv2dNchwInferDtype);
        this->AICore().SetTiling(optiling::TransposedConv2dNchwTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(TransposedConv2dNchw);
}  // namespace ops
