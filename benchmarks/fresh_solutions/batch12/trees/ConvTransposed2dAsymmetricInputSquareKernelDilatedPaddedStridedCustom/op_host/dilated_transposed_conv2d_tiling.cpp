/*
 * DilatedTransposedConv2d tiling.
 * A work item is one output line (n, oh) for a tile of output channels. The UB holds:
 *   - the K*K gathered taps of one input channel             (ks*ks*wOutPad floats)
 *   - accumulators for ocTile output channels                 (ocTile*wOutPad floats)
 *   - the weights of one input channel for that tile          (ocTile*ks*ks floats)
 *   - the per-kw gather offsets                               (ks*wOutPad uint32)
 */
#include "dilated_transposed_conv2d_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static inline uint32_t RoundUp8(uint64_t v) { return static_cast<uint32_t>((v + 7) / 8 * 8); }

ge::graphStatus DilatedTransposedConv2dTilingFunc(gert::TilingContext *context)
{
    auto xs = context->GetInputShape(0)->GetStorageShape();
    auto ws = context->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 4 || ws.GetDimNum() != 4 || ws.GetDim(2) != ws.GetDim(3)) {
        return ge::GRAPH_FAILED;
    }
    auto attrs = context->GetAttrs();
    int64_t stride = *attrs->GetAttrPointer<int64_t>(0);
    int64_t pad = *attrs->GetAttrPointer<int64_t>(1);
    int64_t dil = *attrs->GetAttrPointer<int64_t>(2);
    if (stride < 1 || dil < 1 || pad < 0) {
        return ge::GRAPH_FAILED;
    }

    int64_t n = xs.GetDim(0), cIn = xs.GetDim(1), hIn = xs.GetDim(2), wIn = xs.GetDim(3);
    int64_t cOut = ws.GetDim(1), ks = ws.GetDim(2);
    if (ws.GetDim(0) != cIn) {
        return ge::GRAPH_FAILED;
    }
    int64_t hOut = (hIn - 1) * stride - 2 * pad + dil * (ks - 1) + 1;
    int64_t wOut = (wIn - 1) * stride - 2 * pad + dil * (ks - 1) + 1;
    if (hOut <= 0 || wOut <= 0) {
        return ge::GRAPH_FAILED;
    }

    uint32_t wOutPad = RoundUp8(wOut);
    uint32_t wInPad = RoundUp8(wIn);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    // fixed part: taps, offsets, two input lines (+ zero slot)
    uint64_t fixedBytes = (static_cast<uint64_t>(ks) * ks * wOutPad + ks * wOutPad + 2 * (wInPad + 8)) * 4;
    uint64_t reserve = 8 * 1024;
    uint64_t left = ubSize > fixedBytes + reserve ? ubSize - fixedBytes - reserve : 0;

    uint32_t ocTile = 0;
    for (int64_t t = cOut; t >= 1; --t) {
        if (cOut % t != 0) {
            continue;
        }
        uint64_t need = (static_cast<uint64_t>(t) * wOutPad + RoundUp8(t * ks * ks)) * 4;
        if (need <= left) {
            ocTile = static_cast<uint32_t>(t);
            break;
        }
    }
    if (ocTile == 0) {
        return ge::GRAPH_FAILED;   // a single output line does not fit in UB
    }

    uint32_t ocTiles = static_cast<uint32_t>(cOut) / ocTile;
    uint32_t items = static_cast<uint32_t>(n) * ocTiles * static_cast<uint32_t>(hOut);
    uint32_t cores = plat.GetCoreNumAiv();
    cores = cores == 0 ? 1 : cores;
    uint32_t perCore = (items + cores - 1) / cores;
    uint32_t blockDim = (items + perCore - 1) / perCore;

    DilatedTransposedConv2dTiling t;
    t.set_n(n); t.set_cIn(cIn); t.set_cOut(cOut);
    t.set_hIn(hIn); t.set_wIn(wIn); t.set_hOut(hOut); t.set_wOut(wOut);
    t.set_ks(ks); t.set_stride(stride); t.set_pad(pad); t.set_dilation(dil);
    t.set_wInPad(wInPad); t.set_wOutPad(wOutPad);
    t.set_ocTile(ocTile); t.set_ocTiles(ocTiles);
    t.set_wTileElems(RoundUp8(static_cast<uint64_t>(ocTile) * ks * ks));
    t.set_items(items); t.set_itemsPerCore(perCore);
    t.set_withBias(context->GetOptionalInputShape(2) == nullptr ? 0 : 1);

    context->SetBlockDim(blockDim);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
