#include <cmath>
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus PixelReplicateUpscaleTiling(gert::TilingContext *ctx);
}

namespace ge {
static graphStatus PixelReplicateUpscaleShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *in = ctx->GetInputShape(0);
    gert::Shape *out = ctx->GetOutputShape(0);
    const auto *attrs = ctx->GetAttrs();
    float sh = *attrs->GetAttrPointer<float>(0);
    float sw = *attrs->GetAttrPointer<float>(1);
    size_t rank = in->GetDimNum();
    *out = *in;
    out->SetDim(rank - 2, static_cast<int64_t>(std::floor(in->GetDim(rank - 2) * static_cast<double>(sh))));
    out->SetDim(rank - 1, static_cast<int64_t>(std::floor(in->GetDim(rank - 1) * static_cast<double>(sw))));
    return GRAPH_SUCCESS;
}
static graphStatus PixelReplicateUpscaleType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class PixelReplicateUpscale : public OpDef {
public:
    explicit PixelReplicateUpscale(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("scale_h").Float();
        this->Attr("scale_w").Float();

        this->SetInferShape(ge::PixelReplicateUpscaleShape).SetInferDataType(ge::PixelReplicateUpscaleType);
        this->AICore().SetTiling(optiling::PixelReplicateUpscaleTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(PixelReplicateUpscale);
}  // namespace ops
