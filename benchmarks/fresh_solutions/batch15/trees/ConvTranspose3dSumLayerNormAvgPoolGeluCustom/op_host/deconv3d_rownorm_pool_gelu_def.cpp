#include "deconv3d_rownorm_pool_gelu_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static int64_t Pick(const gert::TypedContinuousVector<int64_t>* v, size_t i, int64_t d)
{
    if (v == nullptr || v->GetSize() == 0) return d;
    return v->GetSize() == 1 ? v->GetData()[0] : v->GetData()[i];
}

static graphStatus Deconv3dRowNormPoolGeluInferShape(gert::InferShapeContext* ctx)
{
    const gert::Shape* x = ctx->GetInputShape(0);
    const gert::Shape* w = ctx->GetInputShape(1);
    const auto* attrs = ctx->GetAttrs();
    const auto* st = attrs->GetListInt(0);
    const auto* pad = attrs->GetListInt(1);
    const auto* opad = attrs->GetListInt(2);
    int64_t pool = *attrs->GetAttrPointer<int64_t>(3);
    gert::Shape* y = ctx->GetOutputShape(0);
    y->SetDimNum(5);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1));
    for (size_t i = 0; i < 3; ++i) {
        int64_t full = (x->GetDim(2 + i) - 1) * Pick(st, i, 1) - 2 * Pick(pad, i, 0) +
                       w->GetDim(2 + i) + Pick(opad, i, 0);
        y->SetDim(2 + i, full / pool);
    }
    return GRAPH_SUCCESS;
}

static graphStatus Deconv3dRowNormPoolGeluInferDtype(gert::InferDataTypeContext* ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class Deconv3dRowNormPoolGelu : public OpDef {
public:
    explicit Deconv3dRowNormPoolGelu(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_NCDHW}).UnknownShapeFormat({ge::FORMAT_NCDHW});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("offset").ParamType(REQUIRED).DataType({ge::DT_FLOAT})   // scalar added to every element
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_NCDHW}).UnknownShapeFormat({ge::FORMAT_NCDHW});

        this->Attr("strides").AttrType(OPTIONAL).ListInt({1, 1, 1});
        this->Attr("pads").AttrType(OPTIONAL).ListInt({0, 0, 0});
        this->Attr("output_padding").AttrType(OPTIONAL).ListInt({0, 0, 0});
        this->Attr("pool_size").AttrType(OPTIONAL).Int(2);
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::Deconv3dRowNormPoolGeluInferShape)
            .SetInferDataType(ge::Deconv3dRowNormPoolGeluInferDtype);
        this->AICore().SetTiling(optiling::Deconv3dRowNormPoolGeluTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Deconv3dRowNormPoolGelu);
}  // namespace ops
