#include "deconv2d_mish_clip_scale_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static inline uint32_t Up8(uint32_t v) { return (v + 7U) & ~7U; }

ge::graphStatus Deconv2dMishClipScaleTilingFunc(gert::TilingContext *context)
{
    const auto &xs = context->GetInputShape(0)->GetStorageShape();   // N, Cin, H, W
    const auto &ws = context->GetInputShape(1)->GetStorageShape();   // Cin, Cout, K, K
    if (xs.GetDimNum() != 4 || ws.GetDimNum() != 4 || ws.GetDim(2) != ws.GetDim(3)) {
        return ge::GRAPH_FAILED;
    }
    const auto *attrs = context->GetAttrs();
    const int64_t stride = *attrs->GetAttrPointer<int64_t>(0);
    const int64_t pad = *attrs->GetAttrPointer<int64_t>(1);
    const int64_t outPad = *attrs->GetAttrPointer<int64_t>(2);
    const float addValue = *attrs->GetAttrPointer<float>(3);
    const float scale = *attrs->GetAttrPointer<float>(4);
    const float clipMin = *attrs->GetAttrPointer<float>(5);
    const float clipMax = *attrs->GetAttrPointer<float>(6);

    const uint32_t k = static_cast<uint32_t>(ws.GetDim(2));
    const int64_t oh = (xs.GetDim(2) - 1) * stride - 2 * pad + k + outPad;
    const int64_t ow = (xs.GetDim(3) - 1) * stride - 2 * pad + k + outPad;
    if (stride <= 0 || oh <= 0 || ow <= 0) {
        return ge::GRAPH_FAILED;
    }

    Deconv2dMishClipScaleTilingData t;
    t.set_batch(static_cast<uint32_t>(xs.GetDim(0)));
    t.set_cin(static_cast<uint32_t>(xs.GetDim(1)));
    t.set_cout(static_cast<uint32_t>(ws.GetDim(1)));
    t.set_ih(static_cast<uint32_t>(xs.GetDim(2)));
    t.set_iw(static_cast<uint32_t>(xs.GetDim(3)));
    t.set_oh(static_cast<uint32_t>(oh));
    t.set_ow(static_cast<uint32_t>(ow));
    const uint32_t owAlign = Up8(static_cast<uint32_t>(ow));
    const uint32_t iwAlign = Up8(static_cast<uint32_t>(xs.GetDim(3)) + 1);
    t.set_owAlign(owAlign);
    t.set_iwAlign(iwAlign);
    t.set_ksize(k);
    t.set_stride(static_cast<uint32_t>(stride));
    t.set_pad(static_cast<uint32_t>(pad));
    t.set_addValue(addValue);
    t.set_clipMin(clipMin);
    t.set_clipMax(clipMax);
    t.set_scale(scale);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    // fixed: 2 input rows, K offset tables, gather scratch, 2 activation scratch rows
    uint64_t fixedBytes = 4ULL * (2 * iwAlign + k * owAlign + owAlign) + 8192;
    // per output channel: accumulator row + double-buffered output row + 2 scratch rows
    uint64_t perCo = 4ULL * owAlign * 4;
    if (fixedBytes + perCo > ub) {
        return ge::GRAPH_FAILED;
    }
    uint32_t cout = t.get_cout();
    uint32_t coTile = static_cast<uint32_t>((ub - fixedBytes) / perCo);
    if (coTile > cout) coTile = cout;
    uint32_t coTiles = (cout + coTile - 1) / coTile;
    coTile = (cout + coTiles - 1) / coTiles;   // balance the tiles
    t.set_coTile(coTile);
    t.set_coTiles(coTiles);
    uint32_t units = t.get_batch() * static_cast<uint32_t>(oh) * coTiles;
    t.set_totalUnits(units);

    uint32_t cores = plat.GetCoreNumAiv();
    context->SetBlockDim(units < cores ? units : cores);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}
