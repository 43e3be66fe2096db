/**
 * @file deconv2d_neg_gelu_scale_def.cpp
 * Operator prototype for Deconv2dNegGeluScale.
 */
#include "deconv2d_neg_gelu_scale_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus Deconv2dNegGeluScaleInferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    const gert::Shape* w = context->GetInputShape(1);
    const auto* attrs = context->GetAttrs();
    const int64_t stride = *attrs->GetAttrPointer<int64_t>(0);
    const int64_t pad = *attrs->GetAttrPointer<int64_t>(1);
    gert::Shape* y = context->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1));
    y->SetDim(2, (x->GetDim(2) - 1) * stride - 2 * pad + w->GetDim(2));
    y->SetDim(3, (x->GetDim(3) - 1) * stride - 2 * pad + w->GetDim(3));
    return GRAPH_SUCCESS;
}

static graphStatus Deconv2dNegGeluScaleInferDtype(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class Deconv2dNegGeluScale : public OpDef {
public:
    explicit Deconv2dNegGeluScale(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_NCHW})
            .UnknownShapeFormat({ge::FORMAT_NCHW});
        this->Input("weight")          // (Cin, Cout, kH, kW), PyTorch transposed-conv layout
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias")            // (Cout)
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_NCHW})
            .UnknownShapeFormat({ge::FORMAT_NCHW});

        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("padding").AttrType(OPTIONAL).Int(0);
        this->Attr("shift").AttrType(OPTIONAL).Float(0.0f);
        this->Attr("scale").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::Deconv2dNegGeluScaleInferShape)
            .SetInferDataType(ge::Deconv2dNegGeluScaleInferDtype);

        this->AICore().SetTiling(optiling::Deconv2dNegGeluScaleTilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend910_93");
    }
};

OP_ADD(Deconv2dNegGeluScale);
}  // namespace ops
