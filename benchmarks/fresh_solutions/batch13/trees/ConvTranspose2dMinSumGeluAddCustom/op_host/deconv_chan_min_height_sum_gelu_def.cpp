#include "deconv_chan_min_height_sum_gelu_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static ge::graphStatus DeconvChanMinHeightSumGeluInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    const int64_t stride = *attrs->GetAttrPointer<int64_t>(0);
    const int64_t pad = *attrs->GetAttrPointer<int64_t>(1);
    const int64_t outPad = *attrs->GetAttrPointer<int64_t>(2);

    const int64_t ow = (x->GetDim(3) - 1) * stride - 2 * pad + w->GetDim(3) + outPad;
    gert::Shape *y = context->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, 1);   // channel min keeps a unit dim
    y->SetDim(2, 1);   // height sum keeps a unit dim
    y->SetDim(3, ow);
    return GRAPH_SUCCESS;
}

static ge::graphStatus DeconvChanMinHeightSumGeluInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class DeconvChanMinHeightSumGelu : public OpDef {
public:
    explicit DeconvChanMinHeightSumGelu(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_NCHW})
            .UnknownShapeFormat({ge::FORMAT_NCHW});
        this->Input("weight")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("conv_bias")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("shift")
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
        this->Attr("output_padding").AttrType(OPTIONAL).Int(0);

        this->SetInferShape(ge::DeconvChanMinHeightSumGeluInferShape)
            .SetInferDataType(ge::DeconvChanMinHeightSumGeluInferDtype);

        this->AICore().SetTiling(optiling::DeconvChanMinHeightSumGeluTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(DeconvChanMinHeightSumGelu);
} // namespace ops
