/*
 * UpsampleConv2d: 2-D transposed convolution with one scalar stride and
 * output_padding shared by both spatial axes, per-axis padding, groups and an
 * optional bias. Kernel height and width are independent.
 */
#include "upsample_conv2d_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus UpsampleConv2dInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    gert::Shape *y = context->GetOutputShape(0);
    const auto *attrs = context->GetAttrs();
    const int64_t stride = *attrs->GetAttrPointer<int64_t>(0);
    const auto *padList = attrs->GetListInt(1);
    const int64_t outPad = *attrs->GetAttrPointer<int64_t>(2);
    const int64_t groups = *attrs->GetAttrPointer<int64_t>(3);
    int64_t pad[2] = {0, 0};
    if (padList != nullptr && padList->GetSize() > 0) {
        const int64_t *pv = static_cast<const int64_t *>(padList->GetData());
        pad[0] = pv[0];
        pad[1] = padList->GetSize() > 1 ? pv[1] : pv[0];
    }
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1) * groups);
    y->SetDim(2, (x->GetDim(2) - 1) * stride - 2 * pad[0] + w->GetDim(2) + outPad);
    y->SetDim(3, (x->GetDim(3) - 1) * stride - 2 * pad[1] + w->GetDim(3) + outPad);
    return GRAPH_SUCCESS;
}

static graphStatus UpsampleConv2dInferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class UpsampleConv2d : public OpDef {
public:
    explicit UpsampleConv2d(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND});
        this->Input("filter")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND});
        this->Input("bias")
            .ParamType(OPTIONAL)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND});
        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("padding").AttrType(OPTIONAL).ListInt({0, 0});
        this->Attr("output_padding").AttrType(OPTIONAL).Int(0);
        this->Attr("groups").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::UpsampleConv2dInferShape).SetInferDataType(ge::UpsampleConv2dInferDataType);
        this->AICore().SetTiling(optiling::UpsampleConv2dTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(UpsampleConv2d);
}  // namespace ops
