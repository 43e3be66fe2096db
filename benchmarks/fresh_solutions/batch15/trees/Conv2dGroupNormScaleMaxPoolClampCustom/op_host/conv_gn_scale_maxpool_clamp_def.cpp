#include "conv_gn_scale_maxpool_clamp_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus ConvGnInferShape(gert::InferShapeContext* ctx)
{
    const gert::Shape* x = ctx->GetInputShape(0);
    const gert::Shape* w = ctx->GetInputShape(1);
    int64_t pool = *ctx->GetAttrs()->GetAttrPointer<int64_t>(1);
    gert::Shape* y = ctx->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    y->SetDim(2, (x->GetDim(2) - w->GetDim(2) + 1) / pool);
    y->SetDim(3, (x->GetDim(3) - w->GetDim(3) + 1) / pool);
    return GRAPH_SUCCESS;
}
static graphStatus ConvGnInferDtype(gert::InferDataTypeContext* ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class ConvGnScaleMaxPoolClamp : public OpDef {
public:
    explicit ConvGnScaleMaxPoolClamp(const char* name) : OpDef(name)
    {
        const char* vecInputs[] = {"weight", "bias", "gamma", "beta", "scale"};
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_NCHW}).UnknownShapeFormat({ge::FORMAT_NCHW});
        for (const char* nm : vecInputs) {
            this->Input(nm).ParamType(REQUIRED).DataType({ge::DT_FLOAT})
                .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        }
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_NCHW}).UnknownShapeFormat({ge::FORMAT_NCHW});

        this->Attr("num_groups").AttrType(REQUIRED).Int();
        this->Attr("pool_size").AttrType(OPTIONAL).Int(2);
        this->Attr("clip_min").AttrType(OPTIONAL).Float(0.0f);
        this->Attr("clip_max").AttrType(OPTIONAL).Float(1.0f);
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::ConvGnInferShape).SetInferDataType(ge::ConvGnInferDtype);
        this->AICore().SetTiling(optiling::ConvGnScaleMaxPoolClampTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ConvGnScaleMaxPoolClamp);
}  // namespace ops
