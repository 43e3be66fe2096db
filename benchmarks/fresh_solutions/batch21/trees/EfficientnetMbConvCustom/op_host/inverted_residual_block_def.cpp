#include "inverted_residual_block_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus InvertedResidualBlockInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *wd = ctx->GetInputShape(4);
    const gert::Shape *wp = ctx->GetInputShape(7);
    const int64_t *strideAttr = ctx->GetAttrs()->GetAttrPointer<int64_t>(0);
    int64_t s = strideAttr ? *strideAttr : 1;
    int64_t k = wd->GetDim(2);
    int64_t p = (k - 1) / 2;
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, wp->GetDim(0));
    y->SetDim(2, (x->GetDim(2) + 2 * p - k) / s + 1);
    y->SetDim(3, (x->GetDim(3) + 2 * p - k) / s + 1);
    return GRAPH_SUCCESS;
}
static graphStatus InvertedResidualBlockInferDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class InvertedResidualBlock : public OpDef {
public:
    explicit InvertedResidualBlock(const char *name) : OpDef(name)
    {
        // x, then (weight, bn_scale, bn_shift) for expand, depthwise and project stages
        const char *inputs[] = {"x",
                                "expand_weight", "expand_scale", "expand_shift",
                                "dw_weight", "dw_scale", "dw_shift",
                                "project_weight", "project_scale", "project_shift"};
        for (const char *in : inputs) {
            this->Input(in).ParamType(REQUIRED).DataType({ge::DT_FLOAT})
                .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        }
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("stride").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::InvertedResidualBlockInferShape)
            .SetInferDataType(ge::InvertedResidualBlockInferDtype);
        this->AICore().SetTiling(optiling::InvertedResidualBlockTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(InvertedResidualBlock);
}  // namespace ops
