#include "dense_bn_scaled_softmax_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus DenseBnScaledSoftmaxInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *w = ctx->GetInputShape(1);
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(2);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    return GRAPH_SUCCESS;
}
static graphStatus DenseBnScaledSoftmaxInferDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class DenseBnScaledSoftmax : public OpDef {
public:
    explicit DenseBnScaledSoftmax(const char *name) : OpDef(name)
    {
        const char *ins[] = {"x", "weight", "bias", "gamma", "beta", "scale"};
        for (const char *n : ins) {
            this->Input(n)
                .ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT})
                .Format({ge::FORMAT_ND})
                .UnknownShapeFormat({ge::FORMAT_ND});
        }
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::DenseBnScaledSoftmaxInferShape)
            .SetInferDataType(ge::DenseBnScaledSoftmaxInferDtype);
        this->AICore().SetTiling(optiling::DenseBnScaledSoftmaxTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(DenseBnScaledSoftmax);
} // namespace ops
