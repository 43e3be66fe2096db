#include "transposed_conv1d_dilated_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus TransposedConv1dDilatedInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    gert::Shape *y = context->GetOutputShape(0);
    if (x == nullptr || w == nullptr || y == nullptr || x->GetDimNum() != 3 || w->GetDimNum() != 3) {
        return GRAPH_FAILED;
    }
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    int64_t s = *attrs->GetInt(0);
    int64_t p = *attrs->GetInt(1);
    int64_t d = *attrs->GetInt(2);
    int64_t op = *attrs->GetInt(3);
    int64_t lout = (x->GetDim(2) - 1) * s - 2 * p + d * (w->GetDim(2) - 1) + op + 1;
    y->SetDimNum(3);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1));
    y->SetDim(2, lout);
    return GRAPH_SUCCESS;
}

static graphStatus TransposedConv1dDilatedInferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class TransposedConv1dDilated : public OpDef {
public:
    explicit TransposedConv1dDilated(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight")       // [C_in, C_out, K]  (PyTorch ConvTranspose layout)
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
        this->Attr("dilation").AttrType(OPTIONAL).Int(1);
        this->Attr("output_padding").AttrType(OPTIONAL).Int(0);

        this->SetInferShape(ge::TransposedConv1dDilatedInferShape)
            .SetInferDataType(ge::TransposedConv1dDilatedInferDataType);
        this->AICore().SetTiling(optiling::TransposedConv1dDilatedTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(TransposedConv1dDilated);
}  // namespace ops
