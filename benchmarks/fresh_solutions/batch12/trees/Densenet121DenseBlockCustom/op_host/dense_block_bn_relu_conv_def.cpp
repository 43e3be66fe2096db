// DenseBlockBnReluConv: a DenseNet dense block in inference form.
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus DenseBlockBnReluConvTilingFunc(gert::TilingContext *context);
}

namespace ge {
static graphStatus DenseBlockInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::RuntimeAttrs *attrs = ctx->GetAttrs();
    int64_t layers = *attrs->GetAttrPointer<int64_t>(0);
    int64_t growth = *attrs->GetAttrPointer<int64_t>(1);
    gert::Shape *y = ctx->GetOutputShape(0);
    *y = *x;
    y->SetDim(1, x->GetDim(1) + layers * growth);
    return GRAPH_SUCCESS;
}
static graphStatus DenseBlockInferDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class DenseBlockBnReluConv : public OpDef {
public:
    explicit DenseBlockBnReluConv(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        // per-channel affine of every layer's batch norm, concatenated layer after layer
        this->Input("bn_scale").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("bn_shift").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        // 3x3 conv weights [growth, Cin_l, 3, 3] of every layer, flattened and concatenated
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("num_layers").AttrType(REQUIRED).Int();
        this->Attr("growth_rate").AttrType(REQUIRED).Int();

        this->SetInferShape(ge::DenseBlockInferShape).SetInferDataType(ge::DenseBlockInferDtype);
        this->AICore().SetTiling(optiling::DenseBlockBnReluConvTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(DenseBlockBnReluConv);
}  // namespace ops
