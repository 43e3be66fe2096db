// OpDef of InvertedBottleneck (inference form, batch norms folded into scale/shift pairs).
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus InvertedBottleneckTiling(gert::TilingContext *ctx);
}

namespace ge {
static graphStatus InvertedBottleneckInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *dw = ctx->GetInputShape(4);
    const gert::Shape *pw = ctx->GetInputShape(7);
    int64_t s = *ctx->GetAttrs()->GetAttrPointer<int64_t>(0);
    int64_t k = dw->GetDim(2);
    int64_t p = (k - 1) / 2;
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, pw->GetDim(0));
    y->SetDim(2, (x->GetDim(2) + 2 * p - k) / s + 1);
    y->SetDim(3, (x->GetDim(3) + 2 * p - k) / s + 1);
    return GRAPH_SUCCESS;
}

static graphStatus InvertedBottleneckInferDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class InvertedBottleneck : public OpDef {
public:
    explicit InvertedBottleneck(const char *name) : OpDef(name)
    {
        const char *ins[] = {"x", "expand_weight", "expand_scale", "expand_shift",
                             "dw_weight", "dw_scale", "dw_shift",
                             "project_weight", "project_scale", "project_shift"};
        for (const char *in : ins) {
            this->Input(in).ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        }
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("stride").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::InvertedBottleneckInferShape).SetInferDataType(ge::InvertedBottleneckInferDtype);
        this->AICore().SetTiling(optiling::InvertedBottleneckTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(InvertedBottleneck);
}  // namespace ops
