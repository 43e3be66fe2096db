#include "atrous_conv2d_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus AtrousConv2dTilingFunc(gert::TilingContext *context);
}

namespace ge {
static int64_t AttrAt(const gert::ContinuousVector *v, size_t i, int64_t def)
{
    if (v == nullptr || v->GetSize() == 0) {
        return def;
    }
    const int64_t *d = reinterpret_cast<const int64_t *>(v->GetData());
    return d[v->GetSize() > i ? i : 0];
}

static graphStatus AtrousConv2dInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    auto attrs = context->GetAttrs();
    auto strides = attrs->GetAttrPointer<gert::ContinuousVector>(0);
    auto pads = attrs->GetAttrPointer<gert::ContinuousVector>(1);
    auto dils = attrs->GetAttrPointer<gert::ContinuousVector>(2);
    int64_t oh = (x->GetDim(2) + 2 * AttrAt(pads, 0, 0) - AttrAt(dils, 0, 1) * (w->GetDim(2) - 1) - 1) /
                 AttrAt(strides, 0, 1) + 1;
    int64_t ow = (x->GetDim(3) + 2 * AttrAt(pads, 1, 0) - AttrAt(dils, 1, 1) * (w->GetDim(3) - 1) - 1) /
                 AttrAt(strides, 1, 1) + 1;
    gert::Shape *y = context->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    y->SetDim(2, oh);
    y->SetDim(3, ow);
    return GRAPH_SUCCESS;
}

static graphStatus AtrousConv2dInferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class AtrousConv2d : public OpDef {
public:
    explicit AtrousConv2d(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        this->Input("filter")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        this->Attr("strides").AttrType(OPTIONAL).ListInt({1, 1});
        this->Attr("pads").AttrType(OPTIONAL).ListInt({0, 0});
        this->Attr("dilations").AttrType(OPTIONAL).ListInt({1, 1});

        this->SetInferShape(ge::AtrousConv2dInferShape).SetInferDataType(ge::AtrousConv2dInferDataType);
        this->AICore().SetTiling(optiling::AtrousConv2dTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(AtrousConv2d);
}  // namespace ops
