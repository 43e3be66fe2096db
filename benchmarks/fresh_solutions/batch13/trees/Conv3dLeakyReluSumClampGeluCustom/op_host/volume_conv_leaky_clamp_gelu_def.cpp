#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus VolumeConvLeakyClampGeluTilingFunc(gert::TilingContext *ctx);
}

namespace ge {
static graphStatus VolumeConvShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *w = ctx->GetInputShape(1);
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(5);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    for (size_t i = 2; i < 5; ++i) {
        y->SetDim(i, x->GetDim(i) - w->GetDim(i) + 1);   // stride 1, no padding
    }
    return GRAPH_SUCCESS;
}
static graphStatus VolumeConvDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class VolumeConvLeakyClampGelu : public OpDef {
public:
    explicit VolumeConvLeakyClampGelu(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("channel_shift").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});

        this->Attr("negative_slope").AttrType(OPTIONAL).Float(0.2f);
        this->Attr("clamp_min").AttrType(OPTIONAL).Float(-1.0f);
        this->Attr("clamp_max").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::VolumeConvShape).SetInferDataType(ge::VolumeConvDtype);
        this->AICore().SetTiling(optiling::VolumeConvLeakyClampGeluTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(VolumeConvLeakyClampGelu);
} // namespace ops
