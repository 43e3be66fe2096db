#include "register/op_def_registry.h"
#include "deconv2d_shift_tanh_tiling.h"

namespace optiling {
ge::graphStatus Deconv2dShiftTanhTiling(gert::TilingContext *context);
}

namespace ge {
static graphStatus Deconv2dShiftTanhInfer(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *w = ctx->GetInputShape(1);
    auto *a = ctx->GetAttrs();
    int64_t s = *a->GetAttrPointer<int64_t>(0);
    int64_t p = *a->GetAttrPointer<int64_t>(1);
    int64_t op = *a->GetAttrPointer<int64_t>(2);
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1));
    y->SetDim(2, (x->GetDim(2) - 1) * s - 2 * p + w->GetDim(2) + op);
    y->SetDim(3, (x->GetDim(3) - 1) * s - 2 * p + w->GetDim(3) + op);
    return GRAPH_SUCCESS;
}
static graphStatus Deconv2dShiftTanhDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class Deconv2dShiftTanh : public OpDef {
public:
    explicit Deconv2dShiftTanh(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("offset").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("padding").AttrType(OPTIONAL).Int(0);
        this->Attr("output_padding").AttrType(OPTIONAL).Int(0);

        this->SetInferShape(ge::Deconv2dShiftTanhInfer).SetInferDataType(ge::Deconv2dShiftTanhDtype);
        this->AICore().SetTiling(optiling::Deconv2dShiftTanhTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Deconv2dShiftTanh);
}  // namespace ops
