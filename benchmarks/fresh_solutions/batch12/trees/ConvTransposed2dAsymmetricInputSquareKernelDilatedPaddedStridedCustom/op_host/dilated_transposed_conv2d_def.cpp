// DilatedTransposedConv2d: transposed 2-D convolution with square kernel, stride, padding and dilation.
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus DilatedTransposedConv2dTilingFunc(gert::TilingContext *context);
}

namespace ge {
static graphStatus DilatedTransposedConv2dShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *w = ctx->GetInputShape(1);
    auto attrs = ctx->GetAttrs();
    int64_t s = *attrs->GetAttrPointer<int64_t>(0);
    int64_t p = *attrs->GetAttrPointer<int64_t>(1);
    int64_t d = *attrs->GetAttrPointer<int64_t>(2);
    int64_t k = w->GetDim(2);
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1));
    y->SetDim(2, (x->GetDim(2) - 1) * s - 2 * p + d * (k - 1) + 1);
    y->SetDim(3, (x->GetDim(3) - 1) * s - 2 * p + d * (k - 1) + 1);
    return GRAPH_SUCCESS;
}
static graphStatus DilatedTransposedConv2dDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class DilatedTransposedConv2d : public OpDef {
public:
    explicit DilatedTransposedConv2d(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_NCHW});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_NCHW});
        this->Input("bias").ParamType(OPTIONAL).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_NCHW});
        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("padding").AttrType(OPTIONAL).Int(0);
        this->Attr("dilation").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::DilatedTransposedConv2dShape).SetInferDataType(ge::DilatedTransposedConv2dDtype);
        this->AICore().SetTiling(optiling::DilatedTransposedConv2dTilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(DilatedTransposedConv2d);
}  // namespace ops
