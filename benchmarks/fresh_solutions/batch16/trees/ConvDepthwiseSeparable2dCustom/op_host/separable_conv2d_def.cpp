/* OpDef of SeparableConv2d. */
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus SeparableConv2dTilingFunc(gert::TilingContext *ctx);
}

namespace ge {
static graphStatus SeparableConv2dInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *xs = ctx->GetInputShape(0);
    const gert::Shape *dws = ctx->GetInputShape(1);
    const gert::Shape *pws = ctx->GetInputShape(2);
    const auto *attrs = ctx->GetAttrs();
    int64_t s = *attrs->GetAttrPointer<int64_t>(0);
    int64_t p = *attrs->GetAttrPointer<int64_t>(1);
    int64_t d = *attrs->GetAttrPointer<int64_t>(2);
    gert::Shape *ys = ctx->GetOutputShape(0);
    ys->SetDimNum(4);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, pws->GetDim(0));
    ys->SetDim(2, (xs->GetDim(2) + 2 * p - d * (dws->GetDim(2) - 1) - 1) / s + 1);
    ys->SetDim(3, (xs->GetDim(3) + 2 * p - d * (dws->GetDim(3) - 1) - 1) / s + 1);
    return GRAPH_SUCCESS;
}

static graphStatus SeparableConv2dInferDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class SeparableConv2d : public OpDef {
public:
    explicit SeparableConv2d(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        this->Input("depthwise_weight").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        this->Input("pointwise_weight").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("padding").AttrType(OPTIONAL).Int(0);
        this->Attr("dilation").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::SeparableConv2dInferShape).SetInferDataType(ge::SeparableConv2dInferDtype);
        this->AICore().SetTiling(optiling::SeparableConv2dTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(SeparableConv2d);
}  // namespace ops
