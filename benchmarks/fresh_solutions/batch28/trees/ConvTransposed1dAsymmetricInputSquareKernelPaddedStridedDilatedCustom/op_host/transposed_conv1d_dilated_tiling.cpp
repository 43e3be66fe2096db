#include "transposed_conv1d_dilated_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t ALIGN_F32 = 8;
constexpr uint64_t UB_KEEP = 8 * 1024;
constexpr uint32_t WEIGHT_UB_LIMIT = 16 * 1024;   // floats
constexpr uint32_t MAX_OUT_TILE = 2048;

inline uint32_t RoundUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

int64_t AttrInt(const gert::RuntimeAttrs *attrs, size_t idx, int64_t dflt)
{
    if (attrs == nullptr) {
        return dflt;
    }
    const int64_t *v = attrs->GetInt(idx);
    return v == nullptr ? dflt : *v;
}

// UB bytes needed for a window of `t` outputs.
uint64_t WindowBytes(uint32_t t, uint32_t co, uint32_t k, uint32_t span)
{
    uint64_t floats = 0;
    floats += static_cast<uint64_t>(co) * t;     // accumulators
    floats += 2ULL * (span > t ? span : t);      // double-buffered input row
    floats += 2ULL * t;                          // double-buffered output row
    floats += 2ULL * k * t;                      // gather offsets (u32) + masks (f32)
    floats += t;                                 // gathered row
    return floats * sizeof(float);
}
}  // namespace

ge::graphStatus TransposedConv1dDilatedTilingFunc(gert::TilingContext *context)
{
    const gert::StorageShape *xs = context->GetInputShape(0);
    const gert::StorageShape *wsh = context->GetInputShape(1);
    if (xs == nullptr || wsh == nullptr) {
        return ge::GRAPH_FAILED;
    }
    const gert::Shape &x = xs->GetStorageShape();
    const gert::Shape &w = wsh->GetStorageShape();
    if (x.GetDimNum() != 3 || w.GetDimNum() != 3 || x.GetDim(1) != w.GetDim(0)) {
        return ge::GRAPH_FAILED;
    }
    bool hasBias = context->GetOptionalInputShape(2) != nullptr;

    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    int64_t s = AttrInt(attrs, 0, 1);
    int64_t p = AttrInt(attrs, 1, 0);
    int64_t d = AttrInt(attrs, 2, 1);
    int64_t op = AttrInt(attrs, 3, 0);
    if (s < 1 || d < 1 || p < 0 || op < 0 || op >= (s > d ? s : d)) {
        return ge::GRAPH_FAILED;
    }

    uint32_t n = static_cast<uint32_t>(x.GetDim(0));
    uint32_t ci = static_cast<uint32_t>(x.GetDim(1));
    uint32_t l = static_cast<uint32_t>(x.GetDim(2));
    uint32_t co = static_cast<uint32_t>(w.GetDim(1));
    uint32_t k = static_cast<uint32_t>(w.GetDim(2));
    int64_t lout = (static_cast<int64_t>(l) - 1) * s - 2 * p + d * (static_cast<int64_t>(k) - 1) + op + 1;
    if (lout <= 0) {
        return ge::GRAPH_FAILED;
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t cores = platform.GetCoreNumAiv();
    cores = cores == 0 ? 1 : cores;

    uint32_t weightCount = ci * co * k;
    uint32_t weightInUb = weightCount <= WEIGHT_UB_LIMIT ? 1U : 0U;
    uint64_t budget = ub - UB_KEEP;
    budget -= RoundUp(co, ALIGN_F32) * sizeof(float);
    if (weightInUb) {
        budget -= RoundUp(weightCount, ALIGN_F32) * sizeof(float);
    }

    // Largest window that fits, searched downwards in steps of 8.
    uint32_t tile = RoundUp(static_cast<uint32_t>(lout), ALIGN_F32);
    if (tile > MAX_OUT_TILE) {
        tile = MAX_OUT_TILE;
    }
    uint32_t span = 0;
    while (tile >= ALIGN_F32) {
        span = RoundUp(static_cast<uint32_t>((tile - 1 + d * (k - 1)) / s + 2), ALIGN_F32);
        if (WindowBytes(tile, co, k, span) <= budget) {
            break;
        }
        tile -= ALIGN_F32;
    }
    if (tile < ALIGN_F32) {
        return ge::GRAPH_FAILED;
    }

    uint32_t tilesPerBatch = (static_cast<uint32_t>(lout) + tile - 1) / tile;
    uint32_t total = tilesPerBatch * n;
    uint32_t blockDim = total < cores ? total : cores;
    blockDim = blockDim == 0 ? 1 : blockDim;

    TransposedConv1dDilatedTilingData td;
    td.set_batch(n);
    td.set_inChannels(ci);
    td.set_outChannels(co);
    td.set_inLength(l);
    td.set_outLength(static_cast<uint32_t>(lout));
    td.set_kernelSize(k);
    td.set_stride(static_cast<int32_t>(s));
    td.set_padding(static_cast<int32_t>(p));
    td.set_dilation(static_cast<int32_t>(d));
    td.set_hasBias(hasBias ? 1U : 0U);
    td.set_outTile(tile);
    td.set_spanMax(span);
    td.set_tilesPerBatch(tilesPerBatch);
    td.set_totalTiles(total);
    td.set_tilesPerCore(total / blockDim);
    td.set_tilesTail(total % blockDim);
    td.set_weightInUb(weightInUb);

    context->SetBlockDim(blockDim);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *wsSize = context->GetWorkspaceSizes(1);
    wsSize[0] = platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
