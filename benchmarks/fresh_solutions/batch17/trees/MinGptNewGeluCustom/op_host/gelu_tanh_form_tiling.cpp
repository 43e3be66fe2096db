#include "gelu_tanh_form_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint64_t GRAIN = 64;          // keep per-core slices 256B aligned for fp32
constexpr uint32_t MAX_TILE = 8192;
}

ge::graphStatus GeluTanhFormTiling(gert::TilingContext *ctx)
{
    const uint64_t total = ctx->GetInputShape(0)->GetStorageShape().GetShapeSize();
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    const uint64_t cores = plat.GetCoreNumAiv();

    uint64_t perCore = (total + cores - 1) / cores;
    perCore = (perCore + GRAIN - 1) / GRAIN * GRAIN;
    if (perCore == 0) {
        perCore = GRAIN;
    }
    const uint32_t used = static_cast<uint32_t>((total + perCore - 1) / perCore);

    // UB: in x2 + out x2 in the io dtype, plus 3 float work tiles
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    const uint32_t elem = ctx->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    uint32_t tile = static_cast<uint32_t>((ub - 1024) / (4 * elem + 3 * 4)) / GRAIN * GRAIN;
    tile = tile > MAX_TILE ? MAX_TILE : tile;

    GeluTanhFormTilingData td;
    td.set_total(total);
    td.set_perCore(perCore);
    td.set_tileLen(tile);
    ctx->SetBlockDim(used == 0 ? 1 : used);
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());
    ctx->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
