#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus Deconv3dPoolChannelSumTilingFunc(gert::TilingContext *ctx);
}

namespace ge {
static graphStatus Deconv3dPoolChannelSumInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *w = ctx->GetInputShape(1);
    const gert::RuntimeAttrs *attrs = ctx->GetAttrs();
    int64_t s = *attrs->GetAttrPointer<int64_t>(0);
    int64_t p = *attrs->GetAttrPointer<int64_t>(1);
    int64_t win = (*attrs->GetAttrPointer<int64_t>(2)) * (*attrs->GetAttrPointer<int64_t>(3));
    int64_t k = w->GetDim(2);
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(5);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, 1);
    for (size_t i = 2; i < 5; ++i) {
        int64_t full = (x->GetDim(i) - 1) * s - 2 * p + k;
        y->SetDim(i, full / win);
    }
    return GRAPH_SUCCESS;
}

static graphStatus Deconv3dPoolChannelSumInferType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class Deconv3dPoolChannelSum : public OpDef {
public:
    explicit Deconv3dPoolChannelSum(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("padding").AttrType(OPTIONAL).Int(0);
        this->Attr("pool_first").AttrType(OPTIONAL).Int(2);
        this->Attr("pool_second").AttrType(OPTIONAL).Int(3);

        this->SetInferShape(ge::Deconv3dPoolChannelSumInferShape)
            .SetInferDataType(ge::Deconv3dPoolChannelSumInferType);
        this->AICore().SetTiling(optiling::Deconv3dPoolChannelSumTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Deconv3dPoolChannelSum);
} // namespace ops
