// host side: tiling, shape inference, op registration
#include "conv3d_scaling_tanh_multiply_sigmoid_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_TILE = 8192;

static ge::graphStatus TilingFunc(gert::TilingContext *ctx)
{
    Conv3dScalingTanhMultiplySigmoidCustomTilingData td;
    auto s = ctx->GetInputShape(0)->GetStorageShape();
    uint32_t n = s.GetDim(0), c = s.GetDim(1);
    uint32_t plane = 1;
    for (size_t i = 2; i < s.GetDimNum(); i++) plane *= s.GetDim(i);
    uint32_t tl = (plane + 7) / 8 * 8;
    if (tl > MAX_TILE) tl = MAX_TILE;
    uint32_t tpp = (plane + tl - 1) / tl;
    uint32_t tot = n * c * tpp;
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    td.set_channels(c);
    td.set_plane(plane);
    td.set_tileLen(tl);
    td.set_tilesPerPlane(tpp);
    td.set_totalTiles(tot);
    ctx->SetBlockDim(tot < cores ? tot : cores);
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *ws = ctx->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *ctx)
{
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class Conv3dScalingTanhMultiplySigmoidCustom : public OpDef {
public:
    explicit Conv3dScalingTanhMultiplySigmoidCustom(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("scaling").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Conv3dScalingTanhMultiplySigmoidCustom);
}
