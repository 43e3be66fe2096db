/**
 * Operator definition for Deconv2dSquareKernel.
 *   y = conv_transpose2d(x, weight, bias, stride, padding, output_padding, groups)
 * weight layout: [Cin, Cout / groups, K, K]
 */
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus Deconv2dSquareKernelTilingFunc(gert::TilingContext *context);
}

namespace ge {
static ge::graphStatus Deconv2dSquareKernelInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    gert::Shape *y = context->GetOutputShape(0);
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    int64_t stride = *attrs->GetAttrPointer<int64_t>(0);
    int64_t pad = *attrs->GetAttrPointer<int64_t>(1);
    int64_t outPad = *attrs->GetAttrPointer<int64_t>(2);
    int64_t groups = *attrs->GetAttrPointer<int64_t>(3);
    int64_t k = w->GetDim(2);

    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1) * groups);
    y->SetDim(2, (x->GetDim(2) - 1) * stride - 2 * pad + k + outPad);
    y->SetDim(3, (x->GetDim(3) - 1) * stride - 2 * pad + k + outPad);
    return GRAPH_SUCCESS;
}

static ge::graphStatus Deconv2dSquareKernelInferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class Deconv2dSquareKernel : public OpDef {
public:
    explicit Deconv2dSquareKernel(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias")
            .ParamType(OPTIONAL)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("padding").AttrType(OPTIONAL).Int(0);
        this->Attr("output_padding").AttrType(OPTIONAL).Int(0);
        this->Attr("groups").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::Deconv2dSquareKernelInferShape)
            .SetInferDataType(ge::Deconv2dSquareKernelInferDataType);

        this->AICore().SetTiling(optiling::Deconv2dSquareKernelTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(Deconv2dSquareKernel);
}  // namespace ops
