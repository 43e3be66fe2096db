#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus DeconvGeluGroupNormalizeTiling(gert::TilingContext *ctx);
}

namespace ge {
static graphStatus DeconvGeluGnInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *w = ctx->GetInputShape(1);
    int64_t stride = *ctx->GetAttrs()->GetAttrPointer<int64_t>(0);
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1));
    y->SetDim(2, (x->GetDim(2) - 1) * stride + w->GetDim(2));
    y->SetDim(3, (x->GetDim(3) - 1) * stride + w->GetDim(3));
    return GRAPH_SUCCESS;
}
static graphStatus DeconvGeluGnInferType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class DeconvGeluGroupNormalize : public OpDef {
public:
    explicit DeconvGeluGroupNormalize(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_NCHW});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_NCHW});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_NCHW});
        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("num_groups").AttrType(REQUIRED).Int();
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::DeconvGeluGnInferShape).SetInferDataType(ge::DeconvGeluGnInferType);
        this->AICore().SetTiling(optiling::DeconvGeluGroupNormalizeTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(DeconvGeluGroupNormalize);
}
