#include "pointwise_channel_mix_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus PointwiseChannelMixTilingFunc(gert::TilingContext* context);
}

namespace ge {
static graphStatus PointwiseChannelMixInferShape(gert::InferShapeContext* ctx)
{
    const gert::Shape* x = ctx->GetInputShape(0);
    const gert::Shape* w = ctx->GetInputShape(1);
    gert::Shape* y = ctx->GetOutputShape(0);
    *y = *x;
    y->SetDim(1, w->GetDim(0));
    return GRAPH_SUCCESS;
}
static graphStatus PointwiseChannelMixInferDataType(gert::InferDataTypeContext* ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class PointwiseChannelMix : public OpDef {
public:
    explicit PointwiseChannelMix(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        // [Cout, Cin] or [Cout, Cin, 1, 1]; both are the same bytes
        this->Input("weight")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::PointwiseChannelMixInferShape)
            .SetInferDataType(ge::PointwiseChannelMixInferDataType);
        this->AICore().SetTiling(optiling::PointwiseChannelMixTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(PointwiseChannelMix);
}  // namespace ops
