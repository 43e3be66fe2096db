#include "register/op_def_registry.h"

namespace optiling {
extern ge::graphStatus VolumeTransposedConvTilingFunc(gert::TilingContext *context);
}

namespace ge {
static int64_t AttrAt(const gert::RuntimeAttrs *attrs, size_t idx, int axis, int64_t dflt)
{
    if (attrs == nullptr) {
        return dflt;
    }
    const gert::ContinuousVector *v = attrs->GetAttrPointer<gert::ContinuousVector>(idx);
    if (v == nullptr || v->GetSize() != 3) {
        return dflt;
    }
    return static_cast<const int64_t *>(v->GetData())[axis];
}

static graphStatus VolumeTransposedConvInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    int64_t groups = 1;
    if (attrs != nullptr && attrs->GetAttrPointer<int64_t>(4) != nullptr) {
        groups = *attrs->GetAttrPointer<int64_t>(4);
    }
    gert::Shape *y = context->GetOutputShape(0);
    y->SetDimNum(5);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1) * groups);
    for (int a = 0; a < 3; ++a) {
        int64_t s = AttrAt(attrs, 0, a, 1);
        int64_t p = AttrAt(attrs, 1, a, 0);
        int64_t op = AttrAt(attrs, 2, a, 0);
        int64_t d = AttrAt(attrs, 3, a, 1);
        y->SetDim(2 + a, (x->GetDim(2 + a) - 1) * s - 2 * p + d * (w->GetDim(2 + a) - 1) + op + 1);
    }
    return GRAPH_SUCCESS;
}

static graphStatus VolumeTransposedConvInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class VolumeTransposedConv : public OpDef {
public:
    explicit VolumeTransposedConv(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("weight")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("bias")
            .ParamType(OPTIONAL)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("strides").AttrType(OPTIONAL).ListInt({1, 1, 1});
        this->Attr("pads").AttrType(OPTIONAL).ListInt({0, 0, 0});
        this->Attr("output_padding").AttrType(OPTIONAL).ListInt({0, 0, 0});
        this->Attr("dilations").AttrType(OPTIONAL).ListInt({1, 1, 1});
        this->Attr("groups").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::VolumeTransposedConvInferShape).SetInferDataType(ge::VolumeTransposedConvInferDtype);
        this->AICore().SetTiling(optiling::VolumeTransposedConvTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(VolumeTransposedConv);
}  // namespace ops
