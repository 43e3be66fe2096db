#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus DirectConvBiasReluTilingFunc(gert::TilingContext *ctx);
}

namespace ge {
static graphStatus ConvReluInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *w = ctx->GetInputShape(1);
    const gert::RuntimeAttrs *attrs = ctx->GetAttrs();
    int64_t sh = *attrs->GetAttrPointer<int64_t>(0);
    int64_t sw = *attrs->GetAttrPointer<int64_t>(1);
    int64_t ph = *attrs->GetAttrPointer<int64_t>(2);
    int64_t pw = *attrs->GetAttrPointer<int64_t>(3);
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    y->SetDim(2, (x->GetDim(2) + 2 * ph - w->GetDim(2)) / sh + 1);
    y->SetDim(3, (x->GetDim(3) + 2 * pw - w->GetDim(3)) / sw + 1);
    return GRAPH_SUCCESS;
}

static graphStatus ConvReluInferType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class DirectConvBiasRelu : public OpDef {
public:
    explicit DirectConvBiasRelu(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        this->Input("weight").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        this->Input("bias").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        this->Attr("stride_h").AttrType(OPTIONAL).Int(1);
        this->Attr("stride_w").AttrType(OPTIONAL).Int(1);
        this->Attr("pad_h").AttrType(OPTIONAL).Int(0);
        this->Attr("pad_w").AttrType(OPTIONAL).Int(0);

        this->SetInferShape(ge::ConvReluInferShape).SetInferDataType(ge::ConvReluInferType);
        this->AICore().SetTiling(optiling::DirectConvBiasReluTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(DirectConvBiasRelu);
}  // namespace ops
