#include "volumetric_conv_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus VolumetricConvInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *f = ctx->GetInputShape(1);
    const auto *attrs = ctx->GetAttrs();
    int64_t s = *attrs->GetAttrPointer<int64_t>(0);
    int64_t p = *attrs->GetAttrPointer<int64_t>(1);
    int64_t dl = *attrs->GetAttrPointer<int64_t>(2);
    int64_t span = dl * (f->GetDim(2) - 1) + 1;

    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(5);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, f->GetDim(0));
    for (size_t i = 2; i < 5; ++i) {
        y->SetDim(i, (x->GetDim(i) + 2 * p - span) / s + 1);
    }
    return GRAPH_SUCCESS;
}

static graphStatus VolumetricConvInferDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class VolumetricConv : public OpDef {
public:
    explicit VolumetricConv(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_NCDHW, ge::FORMAT_NCDHW})
            .UnknownShapeFormat({ge::FORMAT_NCDHW, ge::FORMAT_NCDHW});
        this->Input("filter")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_NCDHW, ge::FORMAT_NCDHW})
            .UnknownShapeFormat({ge::FORMAT_NCDHW, ge::FORMAT_NCDHW});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_NCDHW, ge::FORMAT_NCDHW})
            .UnknownShapeFormat({ge::FORMAT_NCDHW, ge::FORMAT_NCDHW});
        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("padding").AttrType(OPTIONAL).Int(0);
        this->Attr("dilation").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::VolumetricConvInferShape).SetInferDataType(ge::VolumetricConvInferDtype);
        this->AICore().SetTiling(optiling::VolumetricConvTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(VolumetricConv);
}
