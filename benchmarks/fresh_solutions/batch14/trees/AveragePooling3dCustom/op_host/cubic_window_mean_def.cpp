#include "cubic_window_mean_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus CubicWindowMeanInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const auto *attrs = ctx->GetAttrs();
    const int64_t k = *attrs->GetAttrPointer<int64_t>(0);
    int64_t s = *attrs->GetAttrPointer<int64_t>(1);
    const int64_t p = *attrs->GetAttrPointer<int64_t>(2);
    if (s <= 0) s = k;
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(5);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, x->GetDim(1));
    for (size_t i = 2; i < 5; ++i) {
        y->SetDim(i, (x->GetDim(i) + 2 * p - k) / s + 1);
    }
    return GRAPH_SUCCESS;
}
static graphStatus CubicWindowMeanInferType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class CubicWindowMean : public OpDef {
public:
    explicit CubicWindowMean(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("window").AttrType(REQUIRED).Int();
        this->Attr("stride").AttrType(OPTIONAL).Int(0);   // 0 -> same as window
        this->Attr("padding").AttrType(OPTIONAL).Int(0);

        this->SetInferShape(ge::CubicWindowMeanInferShape).SetInferDataType(ge::CubicWindowMeanInferType);
        this->AICore().SetTiling(optiling::CubicWindowMeanTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(CubicWindowMean);
} // namespace ops
