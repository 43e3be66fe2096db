#include "volume_mean_pool_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static int64_t Pick(const gert::ContinuousVector *v, size_t i)
{
    const int64_t *d = static_cast<const int64_t *>(v->GetData());
    return v->GetSize() == 1 ? d[0] : d[i];
}

static graphStatus MeanPoolInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const auto *attrs = ctx->GetAttrs();
    const auto *k = attrs->GetAttrPointer<gert::ContinuousVector>(0);
    const auto *s = attrs->GetAttrPointer<gert::ContinuousVector>(1);
    const auto *p = attrs->GetAttrPointer<gert::ContinuousVector>(2);
    gert::Shape *y = ctx->GetOutputShape(0);
    *y = *x;
    for (size_t i = 0; i < 3; ++i) {
        int64_t in = x->GetDim(2 + i);
        y->SetDim(2 + i, (in + 2 * Pick(p, i) - Pick(k, i)) / Pick(s, i) + 1);
    }
    return GRAPH_SUCCESS;
}
static graphStatus MeanPoolInferType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class VolumeMeanPool : public OpDef {
public:
    explicit VolumeMeanPool(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_NCDHW, ge::FORMAT_NCDHW});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_NCDHW, ge::FORMAT_NCDHW});
        this->Attr("ksize").AttrType(REQUIRED).ListInt();
        this->Attr("strides").AttrType(OPTIONAL).ListInt({1, 1, 1});
        this->Attr("pads").AttrType(OPTIONAL).ListInt({0, 0, 0});
        this->SetInferShape(ge::MeanPoolInferShape).SetInferDataType(ge::MeanPoolInferType);
        this->AICore().SetTiling(optiling::VolumeMeanPoolTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(VolumeMeanPool);
}
