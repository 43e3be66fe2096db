/**
 * OpDef for ConvNormActResidualLse:
 *   c = conv2d(x, weight, bias)                (stride 1, no padding)
 *   g = hardswish(tanh(group_norm(c)))
 *   y = logsumexp(c + g, dim = channel, keepdim)
 */
#include "conv_norm_act_residual_lse_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus ConvNormActResidualLseInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    gert::Shape *y = context->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, 1);
    y->SetDim(2, x->GetDim(2) - w->GetDim(2) + 1);
    y->SetDim(3, x->GetDim(3) - w->GetDim(3) + 1);
    return GRAPH_SUCCESS;
}

static graphStatus ConvNormActResidualLseInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class ConvNormActResidualLse : public OpDef {
public:
    explicit ConvNormActResidualLse(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});

        this->Attr("num_groups").AttrType(REQUIRED).Int();
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::ConvNormActResidualLseInferShape)
            .SetInferDataType(ge::ConvNormActResidualLseInferDtype);

        this->AICore().SetTiling(optiling::ConvNormActResidualLseTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ConvNormActResidualLse);
} // namespace ops
