#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus ConvBnResidualReluTiling(gert::TilingContext *ctx);
}

namespace ge {
static graphStatus ConvBnResReluInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *w = ctx->GetInputShape(1);
    const gert::RuntimeAttrs *attrs = ctx->GetAttrs();
    int64_t s = *attrs->GetAttrPointer<int64_t>(0);
    int64_t p = *attrs->GetAttrPointer<int64_t>(1);
    int64_t k = w->GetDim(2);
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    y->SetDim(2, (x->GetDim(2) + 2 * p - k) / s + 1);
    y->SetDim(3, (x->GetDim(3) + 2 * p - k) / s + 1);
    return GRAPH_SUCCESS;
}
static graphStatus ConvBnResReluInferType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class ConvBnResidualRelu : public OpDef {
public:
    explicit ConvBnResidualRelu(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_NCHW});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_NCHW});
        this->Input("bn_gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("bn_beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("bn_mean").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("bn_var").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("residual").ParamType(OPTIONAL).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_NCHW});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_NCHW});
        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("padding").AttrType(OPTIONAL).Int(1);
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-5f);
        this->Attr("relu").AttrType(OPTIONAL).Bool(true);

        this->SetInferShape(ge::ConvBnResReluInferShape).SetInferDataType(ge::ConvBnResReluInferType);
        this->AICore().SetTiling(optiling::ConvBnResidualReluTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ConvBnResidualRelu);
}
