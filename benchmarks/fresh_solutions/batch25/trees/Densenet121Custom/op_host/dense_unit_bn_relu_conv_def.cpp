#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus DenseUnitTiling(gert::TilingContext *ctx);
}

namespace ge {
static graphStatus DenseUnitInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *w = ctx->GetInputShape(5);
    gert::Shape *y = ctx->GetOutputShape(0);
    *y = *x;
    y->SetDim(1, x->GetDim(1) + w->GetDim(0));   // input channels followed by the new ones
    return GRAPH_SUCCESS;
}
static graphStatus DenseUnitInferType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class DenseUnitBnReluConv : public OpDef {
public:
    explicit DenseUnitBnReluConv(const char *name) : OpDef(name)
    {
        const char *in[] = {"x", "gamma", "beta", "running_mean", "running_var", "weight"};
        for (const char *nm : in) {
            this->Input(nm).ParamType(REQUIRED).DataType({ge::DT_FLOAT})
                .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        }
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::DenseUnitInferShape).SetInferDataType(ge::DenseUnitInferType);
        this->AICore().SetTiling(optiling::DenseUnitTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(DenseUnitBnReluConv);
}  // namespace ops
