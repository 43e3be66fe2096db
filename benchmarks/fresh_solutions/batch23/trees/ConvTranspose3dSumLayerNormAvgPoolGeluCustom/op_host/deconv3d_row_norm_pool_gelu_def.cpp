#include "deconv3d_row_norm_pool_gelu_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus DeconvNormPoolInferShape(gert::InferShapeContext* ctx)
{
    const gert::Shape* x = ctx->GetInputShape(0);
    const gert::Shape* w = ctx->GetInputShape(1);
    const gert::RuntimeAttrs* attrs = ctx->GetAttrs();
    auto vec = [attrs](size_t i) {
        return static_cast<const int64_t*>(attrs->GetAttrPointer<gert::ContinuousVector>(i)->GetData());
    };
    const int64_t* s = vec(0);
    const int64_t* p = vec(1);
    const int64_t* op = vec(2);
    const int64_t* pool = vec(3);
    gert::Shape* y = ctx->GetOutputShape(0);
    y->SetDimNum(5);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1));
    for (size_t i = 0; i < 3; ++i) {
        int64_t full = (x->GetDim(2 + i) - 1) * s[i] - 2 * p[i] + w->GetDim(2 + i) + op[i];
        y->SetDim(2 + i, full / pool[i]);
    }
    return GRAPH_SUCCESS;
}
static graphStatus DeconvNormPoolInferDtype(gert::InferDataTypeContext* ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class Deconv3dRowNormPoolGelu : public OpDef {
public:
    explicit Deconv3dRowNormPoolGelu(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_NCDHW}).UnknownShapeFormat({ge::FORMAT_NCDHW});
        this->Input("filter").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_NCDHW}).UnknownShapeFormat({ge::FORMAT_NCDHW});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_NCDHW}).UnknownShapeFormat({ge::FORMAT_NCDHW});
        this->Attr("strides").AttrType(REQUIRED).ListInt();
        this->Attr("pads").AttrType(OPTIONAL).ListInt({0, 0, 0});
        this->Attr("output_padding").AttrType(OPTIONAL).ListInt({0, 0, 0});
        this->Attr("pool_size").AttrType(REQUIRED).ListInt();
        this->Attr("addend").AttrType(OPTIONAL).Float(0.0f);
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::DeconvNormPoolInferShape).SetInferDataType(ge::DeconvNormPoolInferDtype);
        this->AICore().SetTiling(optiling::Deconv3dRowNormPoolGeluTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Deconv3dRowNormPoolGelu);
}
