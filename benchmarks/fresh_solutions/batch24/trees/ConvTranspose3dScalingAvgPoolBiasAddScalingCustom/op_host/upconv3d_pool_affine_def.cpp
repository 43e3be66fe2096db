// Upconv3dPoolAffine: transposed 3-D convolution -> scale -> average pool -> per-channel shift -> scale.
#include "upconv3d_pool_affine_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus Upconv3dPoolAffineTilingFunc(gert::TilingContext *context);
}

namespace ge {
static graphStatus Upconv3dPoolAffineInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    auto attrs = context->GetAttrs();
    int64_t s = *attrs->GetInt(0), p = *attrs->GetInt(1), pool = *attrs->GetInt(2);
    int64_t k = w->GetDim(2);
    gert::Shape *y = context->GetOutputShape(0);
    y->SetDimNum(5);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1));
    for (size_t i = 2; i < 5; ++i) {
        y->SetDim(i, ((x->GetDim(i) - 1) * s - 2 * p + k) / pool);
    }
    return GRAPH_SUCCESS;
}
static graphStatus Upconv3dPoolAffineInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class Upconv3dPoolAffine : public OpDef {
public:
    explicit Upconv3dPoolAffine(const char *name) : OpDef(name)
    {
        const char *ins[] = {"x", "weight", "conv_bias", "channel_bias"};
        for (const char *nm : ins) {
            this->Input(nm).ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
                .Format({ge::FORMAT_ND, ge::FORMAT_ND})
                .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        }
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("padding").AttrType(OPTIONAL).Int(0);
        this->Attr("pool_size").AttrType(OPTIONAL).Int(2);
        this->Attr("pre_scale").AttrType(OPTIONAL).Float(1.0f);
        this->Attr("post_scale").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::Upconv3dPoolAffineInferShape).SetInferDataType(ge::Upconv3dPoolAffineInferDtype);
        this->AICore().SetTiling(optiling::Upconv3dPoolAffineTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Upconv3dPoolAffine);
}  // namespace ops
