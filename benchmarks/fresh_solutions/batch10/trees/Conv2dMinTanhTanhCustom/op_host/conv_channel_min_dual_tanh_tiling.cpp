#include "conv_channel_min_dual_tanh_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static uint32_t RoundUp(uint32_t a, uint32_t b) { return (a + b - 1) / b * b; }

ge::graphStatus ConvChannelMinDualTanhTilingFunc(gert::TilingContext *context)
{
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &ws = context->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 4 || ws.GetDimNum() != 4 || xs.GetDim(1) != ws.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1), ih = xs.GetDim(2), iw = xs.GetDim(3);
    uint32_t cout = ws.GetDim(0), kh = ws.GetDim(2), kw = ws.GetDim(3);
    if (ih < kh || iw < kw) {
        return ge::GRAPH_FAILED;
    }
    uint32_t oh = ih - kh + 1;
    uint32_t ow = iw - kw + 1;
    uint32_t kk = kh * kw;
    uint32_t kkPad = RoundUp(kk, 8);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t cores = plat.GetCoreNumAiv();

    // per output column: cout accumulators + 2 x kk shifted input rows + 1 result (+1 out queue x2)
    uint64_t fixedBytes = (uint64_t)2 * cout * kkPad * sizeof(float) + 8 * 1024;
    if (fixedBytes >= ub) {
        return ge::GRAPH_FAILED;
    }
    uint32_t perCol = (cout + 2 * kk + 3) * sizeof(float);
    uint32_t maxTile = static_cast<uint32_t>((ub - fixedBytes) / perCol) / 8 * 8;
    if (maxTile == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t tileW = RoundUp(ow, 8);
    uint32_t tilesPerRow = 1;
    if (tileW > maxTile) {
        tilesPerRow = (ow + maxTile - 1) / maxTile;
        tileW = RoundUp((ow + tilesPerRow - 1) / tilesPerRow, 8);
    }

    uint32_t items = n * oh * tilesPerRow;
    uint32_t used = items < cores ? items : cores;

    ConvChannelMinDualTanhTiling t;
    t.set_n(n);
    t.set_cin(cin);
    t.set_ih(ih);
    t.set_iw(iw);
    t.set_cout(cout);
    t.set_kh(kh);
    t.set_kw(kw);
    t.set_oh(oh);
    t.set_ow(ow);
    t.set_tileW(tileW);
    t.set_tilesPerRow(tilesPerRow);
    t.set_itemsPerCore(items / used);
    t.set_itemsRem(items % used);

    context->SetBlockDim(used);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
