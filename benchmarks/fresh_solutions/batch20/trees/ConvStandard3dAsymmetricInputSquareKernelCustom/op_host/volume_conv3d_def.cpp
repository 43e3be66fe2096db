#include "volume_conv3d_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static int64_t AttrAt(const gert::RuntimeAttrs *attrs, size_t idx, size_t axis)
{
    auto v = attrs->GetAttrPointer<gert::ContinuousVector>(idx);
    auto d = static_cast<const int64_t *>(v->GetData());
    return v->GetSize() == 1 ? d[0] : d[axis];
}

static graphStatus VolumeConv3dInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *w = ctx->GetInputShape(1);
    auto attrs = ctx->GetAttrs();
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(5);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    for (size_t a = 0; a < 3; ++a) {
        int64_t s = AttrAt(attrs, 0, a), p = AttrAt(attrs, 1, a), d = AttrAt(attrs, 2, a);
        y->SetDim(2 + a, (x->GetDim(2 + a) + 2 * p - d * (w->GetDim(2 + a) - 1) - 1) / s + 1);
    }
    return GRAPH_SUCCESS;
}

static graphStatus VolumeConv3dInferDataType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class VolumeConv3d : public OpDef {
public:
    explicit VolumeConv3d(const char *name) : OpDef(name)
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
        this->Input("bias")
            .ParamType(OPTIONAL)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_NCDHW, ge::FORMAT_NCDHW})
            .UnknownShapeFormat({ge::FORMAT_NCDHW, ge::FORMAT_NCDHW});

        this->Attr("strides").AttrType(OPTIONAL).ListInt({1, 1, 1});
        this->Attr("pads").AttrType(OPTIONAL).ListInt({0, 0, 0});
        this->Attr("dilations").AttrType(OPTIONAL).ListInt({1, 1, 1});
        this->Attr("groups").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::VolumeConv3dInferShape).SetInferDataType(ge::VolumeConv3dInferDataType);
        this->AICore().SetTiling(optiling::VolumeConv3dTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(VolumeConv3d);
} // namespace ops
