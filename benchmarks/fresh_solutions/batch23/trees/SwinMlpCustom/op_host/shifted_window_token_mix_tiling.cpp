#include "shifted_window_token_mix_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

ge::graphStatus ShiftedWindowTokenMixTiling(gert::TilingContext *context)
{
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();   // [B, H*W, C]
    if (xs.GetDimNum() != 3) {
        return ge::GRAPH_FAILED;
    }
    const auto *attrs = context->GetAttrs();
    int64_t h = *attrs->GetAttrPointer<int64_t>(0);
    int64_t w = *attrs->GetAttrPointer<int64_t>(1);
    int64_t heads = *attrs->GetAttrPointer<int64_t>(2);
    int64_t win = *attrs->GetAttrPointer<int64_t>(3);
    int64_t shift = *attrs->GetAttrPointer<int64_t>(4);
    float eps = *attrs->GetAttrPointer<float>(5);

    uint32_t b = xs.GetDim(0);
    uint32_t l = xs.GetDim(1);
    uint32_t c = xs.GetDim(2);
    if (h * w != l || heads <= 0 || c % heads != 0) {
        return ge::GRAPH_FAILED;
    }
    // a window that covers the whole map is never shifted
    int64_t minSide = h < w ? h : w;
    if (minSide <= win) {
        win = minSide;
        shift = 0;
    }
    if (shift < 0 || shift >= win || h % win != 0 || w % win != 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t headDim = c / static_cast<uint32_t>(heads);
    if (headDim % 8 != 0) {
        return ge::GRAPH_FAILED;   // head slices must start on 32B boundaries in UB
    }

    uint32_t padLead = shift > 0 ? static_cast<uint32_t>(win - shift) : 0;
    uint32_t extra = shift > 0 ? static_cast<uint32_t>(win) : 0;
    uint32_t winsH = (static_cast<uint32_t>(h) + extra) / win;
    uint32_t winsW = (static_cast<uint32_t>(w) + extra) / win;
    uint32_t totalWins = b * winsH * winsW;

    // UB per head: normalised tile + output tile + residual tile + mixing matrix
    uint32_t tokens = static_cast<uint32_t>(win * win);
    uint32_t perHead = tokens * headDim * 4 * 3 + tokens * tokens * 4 + 64;
    uint32_t fixed = tokens * c * 4 / static_cast<uint32_t>(win) * 2   // stats pass line buffer
                     + c * 4 * 3 + tokens * 8 + 4096;
    const uint32_t ubBudget = 180 * 1024;
    if (fixed + perHead > ubBudget) {
        return ge::GRAPH_FAILED;
    }
    uint32_t hpp = (ubBudget - fixed) / perHead;
    if (hpp > static_cast<uint32_t>(heads)) {
        hpp = static_cast<uint32_t>(heads);
    }
    while (heads % hpp != 0) {
        --hpp;   // keep passes uniform
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t per = (totalWins + cores - 1) / cores;
    uint32_t used = (totalWins + per - 1) / per;

    ShiftedWindowTokenMixTilingData td;
    td.set_batch(b);
    td.set_imgH(static_cast<uint32_t>(h));
    td.set_imgW(static_cast<uint32_t>(w));
    td.set_channels(c);
    td.set_heads(static_cast<uint32_t>(heads));
    td.set_headDim(headDim);
    td.set_win(static_cast<uint32_t>(win));
    td.set_padLead(padLead);
    td.set_winsH(winsH);
    td.set_winsW(winsW);
    td.set_totalWins(totalWins);
    td.set_winsPerCore(per);
    td.set_headsPerPass(hpp);
    td.set_eps(eps);

    context->SetBlockDim(used);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}

}  // namespace optiling
