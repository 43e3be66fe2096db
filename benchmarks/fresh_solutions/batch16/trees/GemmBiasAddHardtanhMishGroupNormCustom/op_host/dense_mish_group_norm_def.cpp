#include "dense_mish_group_norm_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus DenseMishGroupNormTilingFunc(gert::TilingContext *context);
}

namespace ge {
static graphStatus DenseMishGroupNormShape(gert::InferShapeContext *ctx)
{
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(2);
    y->SetDim(0, ctx->GetInputShape(0)->GetDim(0));
    y->SetDim(1, ctx->GetInputShape(1)->GetDim(0));
    return GRAPH_SUCCESS;
}
static graphStatus DenseMishGroupNormType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class DenseMishGroupNorm : public OpDef {
public:
    explicit DenseMishGroupNorm(const char *name) : OpDef(name)
    {
        // x, weight [N, K], linear_bias [N], extra_bias [N], gamma [N], beta [N]
        const char *names[] = {"x", "weight", "linear_bias", "extra_bias", "gamma", "beta"};
        for (auto nm : names) {
            this->Input(nm).ParamType(REQUIRED).DataType({ge::DT_FLOAT})
                .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        }
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("num_groups").AttrType(REQUIRED).Int();
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::DenseMishGroupNormShape).SetInferDataType(ge::DenseMishGroupNormType);
        this->AICore().SetTiling(optiling::DenseMishGroupNormTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(DenseMishGroupNorm);
}
