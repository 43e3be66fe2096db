// SlidingWindowMax1d: max pooling along the last axis.
#include "sliding_window_max1d_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus SlidingWindowMax1dInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    gert::Shape *y = ctx->GetOutputShape(0);
    const auto *attrs = ctx->GetAttrs();
    const int64_t k = *attrs->GetAttrPointer<int64_t>(0);
    const int64_t sRaw = *attrs->GetAttrPointer<int64_t>(1);
    const int64_t p = *attrs->GetAttrPointer<int64_t>(2);
    const int64_t d = *attrs->GetAttrPointer<int64_t>(3);
    const int64_t s = sRaw > 0 ? sRaw : k;
    *y = *x;
    const size_t last = x->GetDimNum() - 1;
    y->SetDim(last, (x->GetDim(last) + 2 * p - d * (k - 1) - 1) / s + 1);
    return GRAPH_SUCCESS;
}
static graphStatus SlidingWindowMax1dInferType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class SlidingWindowMax1d : public OpDef {
public:
    explicit SlidingWindowMax1d(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("kernel_size").AttrType(REQUIRED).Int();
        this->Attr("stride").AttrType(OPTIONAL).Int(0);
        this->Attr("padding").AttrType(OPTIONAL).Int(0);
        this->Attr("dilation").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::SlidingWindowMax1dInferShape).SetInferDataType(ge::SlidingWindowMax1dInferType);
        this->AICore().SetTiling(optiling::SlidingWindowMax1dTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(SlidingWindowMax1d);
}  // namespace ops
