#include "deconv3d_pool_softmax_swish_max_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus InferShapeDeconv3dPsm(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *w = ctx->GetInputShape(1);
    const gert::RuntimeAttrs *a = ctx->GetAttrs();
    int64_t s = *a->GetAttrPointer<int64_t>(0);
    int64_t p = *a->GetAttrPointer<int64_t>(1);
    int64_t op = *a->GetAttrPointer<int64_t>(2);
    int64_t pk = *a->GetAttrPointer<int64_t>(3);
    int64_t ps = *a->GetAttrPointer<int64_t>(4);
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    for (size_t i = 0; i < 3; ++i) {
        int64_t o = (x->GetDim(2 + i) - 1) * s - 2 * p + w->GetDim(2 + i) + op;
        y->SetDim(1 + i, (o - pk) / ps + 1);
    }
    return GRAPH_SUCCESS;
}
static graphStatus InferDtypeDeconv3dPsm(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class Deconv3dPoolSoftmaxSwishMax : public OpDef {
public:
    explicit Deconv3dPoolSoftmaxSwishMax(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("offset").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("padding").AttrType(OPTIONAL).Int(0);
        this->Attr("output_padding").AttrType(OPTIONAL).Int(0);
        this->Attr("pool_kernel").AttrType(OPTIONAL).Int(2);
        this->Attr("pool_stride").AttrType(OPTIONAL).Int(2);
        this->Attr("pool_padding").AttrType(OPTIONAL).Int(0);

        this->SetInferShape(ge::InferShapeDeconv3dPsm).SetInferDataType(ge::InferDtypeDeconv3dPsm);
        this->AICore().SetTiling(optiling::Deconv3dPoolSoftmaxSwishMaxTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Deconv3dPoolSoftmaxSwishMax);
}
