#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus TransposedConv2dSaturateTilingFunc(gert::TilingContext *context);
}

namespace ge {
static graphStatus TransposedConv2dSaturateInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    const auto *attrs = context->GetAttrs();
    int64_t s = *attrs->GetAttrPointer<int64_t>(0);
    int64_t p = *attrs->GetAttrPointer<int64_t>(1);
    int64_t op = *attrs->GetAttrPointer<int64_t>(2);
    gert::Shape *y = context->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1));
    y->SetDim(2, (x->GetDim(2) - 1) * s - 2 * p + w->GetDim(2) + op);
    y->SetDim(3, (x->GetDim(3) - 1) * s - 2 * p + w->GetDim(3) + op);
    return GRAPH_SUCCESS;
}
static graphStatus TransposedConv2dSaturateInferType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class TransposedConv2dSaturate : public OpDef {
public:
    explicit TransposedConv2dSaturate(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("conv_bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("channel_bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("padding").AttrType(OPTIONAL).Int(0);
        this->Attr("output_padding").AttrType(OPTIONAL).Int(0);
        this->Attr("scale").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::TransposedConv2dSaturateInferShape)
            .SetInferDataType(ge::TransposedConv2dSaturateInferType);
        this->AICore().SetTiling(optiling::TransposedConv2dSaturateTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(TransposedConv2dSaturate);
}  // namespace ops
