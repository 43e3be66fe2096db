#include "register/op_def_registry.h"

namespace optiling {
extern ge::graphStatus Deconv3dActScalePoolTilingFunc(gert::TilingContext *context);
}

namespace ge {
static int64_t ListAt(const gert::RuntimeAttrs *attrs, size_t idx, int axis, int64_t dflt)
{
    const gert::ContinuousVector *cv = attrs ? attrs->GetAttrPointer<gert::ContinuousVector>(idx) : nullptr;
    if (cv == nullptr || cv->GetSize() != 3) {
        return dflt;
    }
    return static_cast<const int64_t *>(cv->GetData())[axis];
}

static graphStatus Deconv3dActScalePoolInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    int64_t pool = 2;
    if (attrs != nullptr && attrs->GetAttrPointer<int64_t>(4) != nullptr) {
        pool = *attrs->GetAttrPointer<int64_t>(4);
    }
    gert::Shape *y = context->GetOutputShape(0);
    y->SetDimNum(5);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1));
    for (int a = 0; a < 3; ++a) {
        int64_t conv = (x->GetDim(2 + a) - 1) * ListAt(attrs, 0, a, 1) - 2 * ListAt(attrs, 1, a, 0) +
                       w->GetDim(2 + a) + ListAt(attrs, 2, a, 0);
        y->SetDim(2 + a, conv / pool);
    }
    return GRAPH_SUCCESS;
}

static graphStatus Deconv3dActScalePoolInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class Deconv3dActScalePool : public OpDef {
public:
    explicit Deconv3dActScalePool(const char *name) : OpDef(name)
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
        this->Input("scale")       // per-output-channel multiplier, Co elements (e.g. shape (Co,1,1,1))
            .ParamType(REQUIRED)
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
        this->Attr("negative_slope").AttrType(OPTIONAL).Float(0.2f);
        this->Attr("pool_size").AttrType(OPTIONAL).Int(2);

        this->SetInferShape(ge::Deconv3dActScalePoolInferShape).SetInferDataType(ge::Deconv3dActScalePoolInferDtype);
        this->AICore().SetTiling(optiling::Deconv3dActScalePoolTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Deconv3dActScalePool);
}  // namespace ops
