#include "register/op_def_registry.h"
#include "deconv_last_axis_norm_pool_gelu_tiling.h"

namespace optiling {
ge::graphStatus DeconvLastAxisNormPoolGeluTilingFunc(gert::TilingContext *context);
}

namespace ge {
static int64_t Triple(const gert::TypedContinuousVector<int64_t> *v, size_t i, int64_t dflt)
{
    if (v == nullptr || v->GetSize() == 0) {
        return dflt;
    }
    return v->GetSize() == 1 ? v->GetData()[0] : v->GetData()[i];
}

static graphStatus InferShapeDeconvNormPool(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    auto attrs = context->GetAttrs();
    const auto *stride = attrs->GetListInt(0);
    const auto *pad = attrs->GetListInt(1);
    const auto *outPad = attrs->GetListInt(2);
    const auto *pool = attrs->GetListInt(3);

    gert::Shape *y = context->GetOutputShape(0);
    y->SetDimNum(5);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1));
    for (size_t i = 0; i < 3; ++i) {
        int64_t full = (x->GetDim(2 + i) - 1) * Triple(stride, i, 1) - 2 * Triple(pad, i, 0) + w->GetDim(2 + i) +
                       Triple(outPad, i, 0);
        y->SetDim(2 + i, full / Triple(pool, i, 2));
    }
    return GRAPH_SUCCESS;
}

static graphStatus InferDtypeDeconvNormPool(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class DeconvLastAxisNormPoolGelu : public OpDef {
public:
    explicit DeconvLastAxisNormPoolGelu(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});

        this->Attr("strides").AttrType(OPTIONAL).ListInt({1, 1, 1});
        this->Attr("pads").AttrType(OPTIONAL).ListInt({0, 0, 0});
        this->Attr("output_padding").AttrType(OPTIONAL).ListInt({0, 0, 0});
        this->Attr("pool_size").AttrType(OPTIONAL).ListInt({2, 2, 2});
        this->Attr("add_value").AttrType(OPTIONAL).Float(0.0f);
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::InferShapeDeconvNormPool).SetInferDataType(ge::InferDtypeDeconvNormPool);
        this->AICore().SetTiling(optiling::DeconvLastAxisNormPoolGeluTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(DeconvLastAxisNormPoolGelu);
}  // namespace ops
