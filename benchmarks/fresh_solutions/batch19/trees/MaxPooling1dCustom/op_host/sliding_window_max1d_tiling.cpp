#include "sliding_window_max1d_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t OUT_TILE_MAX = 4096;
inline uint32_t Up16(uint64_t v) { return static_cast<uint32_t>((v + 15) / 16 * 16); }
}

ge::graphStatus SlidingWindowMax1dTilingFunc(gert::TilingContext *context)
{
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    const size_t rank = xs.GetDimNum();
    if (rank < 1) {
        return ge::GRAPH_FAILED;
    }
    const auto *attrs = context->GetAttrs();
    const int64_t k = *attrs->GetAttrPointer<int64_t>(0);
    const int64_t sRaw = *attrs->GetAttrPointer<int64_t>(1);
    const int64_t p = *attrs->GetAttrPointer<int64_t>(2);
    const int64_t d = *attrs->GetAttrPointer<int64_t>(3);
    const int64_t s = sRaw > 0 ? sRaw : k;  // stride 0 means "same as kernel"
    if (k <= 0 || d <= 0 || p < 0 || 2 * p > k) {
        return ge::GRAPH_FAILED;
    }

    const int64_t len = xs.GetDim(rank - 1);
    const int64_t outLen = (len + 2 * p - d * (k - 1) - 1) / s + 1;
    if (outLen <= 0) {
        return ge::GRAPH_FAILED;
    }
    uint64_t rows = 1;
    for (size_t i = 0; i + 1 < rank; ++i) {
        rows *= xs.GetDim(i);
    }

    uint32_t tile = outLen < OUT_TILE_MAX ? Up16(outLen) : OUT_TILE_MAX;
    // input span touched by one tile, plus room to realign the left border
    uint64_t span = static_cast<uint64_t>(tile - 1) * s + static_cast<uint64_t>(d) * (k - 1) + 1;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    // stage (fp32 worst case) + offsets + gather tmp + 2 output buffers
    while (tile > 16 && 4ULL * (Up16(p) + Up16(span) + 16 + 4ULL * tile) > ub - 4096) {
        tile /= 2;
        span = static_cast<uint64_t>(tile - 1) * s + static_cast<uint64_t>(d) * (k - 1) + 1;
    }

    SlidingWindowMax1dTilingData td;
    td.set_rows(static_cast<uint32_t>(rows));
    td.set_inLen(static_cast<uint32_t>(len));
    td.set_outLen(static_cast<uint32_t>(outLen));
    td.set_window(static_cast<uint32_t>(k));
    td.set_step(static_cast<uint32_t>(s));
    td.set_pad(static_cast<uint32_t>(p));
    td.set_dilation(static_cast<uint32_t>(d));
    td.set_outTile(tile);
    td.set_stageLen(Up16(p) + Up16(span) + 16);

    uint32_t cores = plat.GetCoreNumAiv();
    cores = cores == 0 ? 1 : cores;
    const uint32_t per = static_cast<uint32_t>((rows + cores - 1) / cores);
    td.set_rowsPerCore(per == 0 ? 1 : per);
    context->SetBlockDim(per == 0 ? 1 : static_cast<uint32_t>((rows + per - 1) / per));
    context->SetTilingKey(context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 1 : 0);

    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
