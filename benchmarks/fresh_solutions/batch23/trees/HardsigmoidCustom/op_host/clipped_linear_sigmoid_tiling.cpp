#include "clipped_linear_sigmoid_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

static constexpr uint32_t TILE_BYTES = 32 * 1024;   // one UB tile; 2 in + 2 out buffers

ge::graphStatus ClippedLinearSigmoidTilingFunc(gert::TilingContext *ctx)
{
    auto ascendc = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint32_t aivNum = ascendc.GetCoreNumAiv();

    uint64_t n = ctx->GetInputShape(0)->GetStorageShape().GetShapeSize();
    uint32_t dsize = ctx->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    uint32_t align = 256 / dsize;   // one vector repeat

    uint64_t per = (n + aivNum - 1) / aivNum;
    per = (per + align - 1) / align * align;
    if (per == 0) {
        per = align;
    }
    uint32_t used = static_cast<uint32_t>((n + per - 1) / per);
    if (used == 0) {
        used = 1;
    }
    uint64_t last = n - per * (used - 1);

    auto attrs = ctx->GetAttrs();
    float alpha = *attrs->GetAttrPointer<float>(0);
    float beta = *attrs->GetAttrPointer<float>(1);

    ClippedLinearSigmoidTiling td;
    td.set_elemsPerCore(static_cast<uint32_t>(per));
    td.set_lastCoreElems(static_cast<uint32_t>(last));
    td.set_tileElems(TILE_BYTES / dsize);
    td.set_alpha(alpha);
    td.set_beta(beta);

    ctx->SetBlockDim(used);
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());
    ctx->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
