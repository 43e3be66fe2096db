#include "volume_conv_pool_lse_relu_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus VolumeConvPoolLseReluInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *w = ctx->GetInputShape(1);
    auto attrs = ctx->GetAttrs();
    const int64_t *sPtr = attrs->GetAttrPointer<int64_t>(0);
    const int64_t *pPtr = attrs->GetAttrPointer<int64_t>(1);
    int64_t s = sPtr ? *sPtr : 1;
    int64_t p = pPtr ? *pPtr : 0;
    int64_t k = w->GetDim(2);
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(5);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, 1);
    for (size_t i = 2; i < 5; ++i) {
        y->SetDim(i, ((x->GetDim(i) + 2 * p - k) / s + 1) / 2);
    }
    return GRAPH_SUCCESS;
}
static graphStatus VolumeConvPoolLseReluInferDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class VolumeConvPoolLseRelu : public OpDef {
public:
    explicit VolumeConvPoolLseRelu(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("padding").AttrType(OPTIONAL).Int(0);

        this->SetInferShape(ge::VolumeConvPoolLseReluInferShape)
            .SetInferDataType(ge::VolumeConvPoolLseReluInferDtype);
        this->AICore().SetTiling(optiling::VolumeConvPoolLseReluTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(VolumeConvPoolLseRelu);
}  // namespace ops
