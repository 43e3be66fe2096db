#include "volumetric_conv_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus VolumetricConvTilingFunc(gert::TilingContext *context);
}

namespace ge {
static ge::graphStatus VolumetricConvInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *w = ctx->GetInputShape(1);
    const auto *attrs = ctx->GetAttrs();
    int64_t s = *attrs->GetAttrPointer<int64_t>(0);
    int64_t p = *attrs->GetAttrPointer<int64_t>(1);
    int64_t dl = *attrs->GetAttrPointer<int64_t>(2);
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(5);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    for (size_t i = 2; i < 5; ++i) {
        int64_t span = dl * (w->GetDim(i) - 1) + 1;
        y->SetDim(i, (x->GetDim(i) + 2 * p - span) / s + 1);
    }
    return GRAPH_SUCCESS;
}
static ge::graphStatus VolumetricConvInferType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class VolumetricConv : public OpDef {
public:
    explicit VolumetricConv(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});   // [N, Cin, D, H, W]
        this->Input("filter").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});   // [Cout, Cin, k, k, k]
        this->Input("bias").ParamType(OPTIONAL).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});   // [Cout]
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("padding").AttrType(OPTIONAL).Int(0);
        this->Attr("dilation").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::VolumetricConvInferShape).SetInferDataType(ge::VolumetricConvInferType);
        this->AICore().SetTiling(optiling::VolumetricConvTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(VolumetricConv);
}  // namespace ops
