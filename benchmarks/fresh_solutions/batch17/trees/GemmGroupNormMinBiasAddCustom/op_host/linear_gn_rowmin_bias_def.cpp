#include "register/op_def_registry.h"
#include "linear_gn_rowmin_bias_tiling.h"

namespace optiling {
ge::graphStatus LinearGnRowminBiasTiling(gert::TilingContext *ctx);
}

namespace ge {
// row minimum (B, 1) broadcast against a (1, Out, 1, 1) bias gives (1, Out, B, 1)
static graphStatus LgrbInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *w = ctx->GetInputShape(1);
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, 1);
    y->SetDim(1, w->GetDim(0));
    y->SetDim(2, x->GetDim(0));
    y->SetDim(3, 1);
    return GRAPH_SUCCESS;
}
static graphStatus LgrbInferType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ge::DT_FLOAT);
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class LinearGnRowminBias : public OpDef {
public:
    explicit LinearGnRowminBias(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("linear_bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("num_groups").AttrType(REQUIRED).Int();
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::LgrbInferShape).SetInferDataType(ge::LgrbInferType);
        this->AICore().SetTiling(optiling::LinearGnRowminBiasTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(LinearGnRowminBias);
}  // namespace ops
