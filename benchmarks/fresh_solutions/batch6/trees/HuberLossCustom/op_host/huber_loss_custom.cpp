// host side: tiling, shape inference, op definition
#include "huber_loss_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE = 8192;
static ge::graphStatus TilingFunc(gert::TilingContext* ctx)
{
    HuberLossCustomTilingData t;
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores == 0) cores = 1;
    uint64_t n = ctx->GetInputShape(0)->GetStorageShape().GetShapeSize();
    uint64_t per = (n + cores - 1) / cores;
    per = (per + 7) / 8 * 8;
    uint32_t used = static_cast<uint32_t>((n + per - 1) / per);
    if (used == 0) used = 1;
    ctx->SetBlockDim(used);
    t.set_total(n);
    t.set_perCore(per);
    t.set_tileLen(TILE);
    t.set_beta(1.0f);
    t.set_invTotal(n ? 1.0f / static_cast<float>(n) : 0.0f);
    t.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(t.GetDataSize());
    size_t* ws = ctx->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* ctx)
{
    gert::Shape* y = ctx->GetOutputShape(0);
    y->SetDimNum(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class HuberLossCustom : public OpDef {
public:
    explicit HuberLossCustom(const char* name) : OpDef(name)
    {
        this->Input("predictions").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("targets").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("loss").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(HuberLossCustom);
}
