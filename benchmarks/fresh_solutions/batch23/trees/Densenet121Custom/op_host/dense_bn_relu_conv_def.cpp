#include "dense_bn_relu_conv_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus DenseBnReluConvInferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    const gert::Shape* wt = context->GetInputShape(3);
    const int64_t* padAttr = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    int64_t pad = padAttr == nullptr ? 0 : *padAttr;
    gert::Shape* y = context->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, wt->GetDim(0));
    y->SetDim(2, x->GetDim(2) + 2 * pad - wt->GetDim(2) + 1);
    y->SetDim(3, x->GetDim(3) + 2 * pad - wt->GetDim(3) + 1);
    return GRAPH_SUCCESS;
}

static graphStatus DenseBnReluConvInferDtype(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class DenseBnReluConv : public OpDef {
public:
    explicit DenseBnReluConv(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_NCHW}).UnknownShapeFormat({ge::FORMAT_NCHW});
        // folded inference batch norm: scale = gamma / sqrt(var + eps), shift = beta - mean * scale
        this->Input("bn_scale").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bn_shift").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_NCHW}).UnknownShapeFormat({ge::FORMAT_NCHW});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_NCHW}).UnknownShapeFormat({ge::FORMAT_NCHW});
        this->Attr("pad").AttrType(OPTIONAL).Int(0);

        this->SetInferShape(ge::DenseBnReluConvInferShape).SetInferDataType(ge::DenseBnReluConvInferDtype);
        this->AICore().SetTiling(optiling::DenseBnReluConvTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(DenseBnReluConv);
} // namespace ops
