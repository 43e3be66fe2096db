#include "depthwise_conv2d_plain_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus DepthwiseConv2dPlainInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *w = ctx->GetInputShape(1);
    const int64_t *stride = ctx->GetAttrs()->GetAttrPointer<int64_t>(0);
    const int64_t *pad = ctx->GetAttrs()->GetAttrPointer<int64_t>(1);
    int64_t s = stride ? *stride : 1;
    int64_t p = pad ? *pad : 0;
    int64_t k = w->GetDim(2);
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, x->GetDim(1));
    y->SetDim(2, (x->GetDim(2) + 2 * p - k) / s + 1);
    y->SetDim(3, (x->GetDim(3) + 2 * p - k) / s + 1);
    return GRAPH_SUCCESS;
}
static graphStatus DepthwiseConv2dPlainInferDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class DepthwiseConv2dPlain : public OpDef {
public:
    explicit DepthwiseConv2dPlain(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW})
            .UnknownShapeFormat({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        this->Input("weight")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
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
        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("padding").AttrType(OPTIONAL).Int(0);

        this->SetInferShape(ge::DepthwiseConv2dPlainInferShape).SetInferDataType(ge::DepthwiseConv2dPlainInferDtype);
        this->AICore().SetTiling(optiling::DepthwiseConv2dPlainTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(DepthwiseConv2dPlain);
}
