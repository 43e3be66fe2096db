#include "deconv2d_bn_tanh_pool_gn_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus Deconv2dBnTanhPoolGnShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *w = ctx->GetInputShape(1);
    const int64_t s = *ctx->GetAttrs()->GetAttrPointer<int64_t>(0);
    const int64_t p = *ctx->GetAttrs()->GetAttrPointer<int64_t>(1);
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1));
    y->SetDim(2, ((x->GetDim(2) - 1) * s - 2 * p + w->GetDim(2)) / 2);
    y->SetDim(3, ((x->GetDim(3) - 1) * s - 2 * p + w->GetDim(3)) / 2);
    return GRAPH_SUCCESS;
}
static graphStatus Deconv2dBnTanhPoolGnDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class Deconv2dBnTanhPoolGn : public OpDef {
public:
    explicit Deconv2dBnTanhPoolGn(const char *name) : OpDef(name)
    {
        // x, weight (C_in, C_out, K, K), conv bias, bn gamma/beta, gn gamma/beta
        const char *names[] = {"x", "weight", "bias", "bn_gamma", "bn_beta", "gn_gamma", "gn_beta"};
        for (auto nm : names) {
            this->Input(nm).ParamType(REQUIRED).DataType({ge::DT_FLOAT})
                .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        }
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("padding").AttrType(OPTIONAL).Int(0);
        this->Attr("num_groups").AttrType(REQUIRED).Int();
        this->Attr("bn_epsilon").AttrType(OPTIONAL).Float(1e-5f);
        this->Attr("gn_epsilon").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::Deconv2dBnTanhPoolGnShape).SetInferDataType(ge::Deconv2dBnTanhPoolGnDtype);
        this->AICore().SetTiling(optiling::Deconv2dBnTanhPoolGnTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Deconv2dBnTanhPoolGn);
}
