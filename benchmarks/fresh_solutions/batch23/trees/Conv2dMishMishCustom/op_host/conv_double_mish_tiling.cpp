#include "conv_double_mish_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint64_t UB_USABLE = 176 * 1024;
constexpr uint32_t TILING_KEY_FP32 = 0;
constexpr uint32_t TILING_KEY_FP16 = 1;
}

ge::graphStatus ConvDoubleMishTilingFunc(gert::TilingContext* ctx)
{
    const auto& xs = ctx->GetInputShape(0)->GetStorageShape();   // (N, Cin, H, W)
    const auto& ws = ctx->GetInputShape(1)->GetStorageShape();   // (Cout, Cin, KH, KW)
    ConvDoubleMishTiling tiling;
    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1), hin = xs.GetDim(2), win = xs.GetDim(3);
    uint32_t cout = ws.GetDim(0), kh = ws.GetDim(2), kw = ws.GetDim(3);
    if (ws.GetDim(1) != cin || kh > hin || kw > win) {
        return ge::GRAPH_FAILED;
    }
    uint32_t hout = hin - kh + 1;
    uint32_t wout = win - kw + 1;

    bool half = ctx->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16;
    uint32_t alignElems = half ? 16 : 8;
    uint32_t woutPad = (wout + alignElems - 1) / alignElems * alignElems;

    // UB (fp32 accumulate): coBlock accumulators + 2 input rows (+cast) + 2 output rows + 3 temps
    uint32_t coBlock = cout > 64 ? 64 : cout;
    auto bytesNeeded = [&](uint32_t cb) {
        return (static_cast<uint64_t>(cb) + 2 + 2 + 2 + 3) * woutPad * sizeof(float);
    };
    while (coBlock > 1 && bytesNeeded(coBlock) > UB_USABLE) {
        coBlock = (coBlock + 1) / 2;
    }
    if (bytesNeeded(coBlock) > UB_USABLE) {
        return ge::GRAPH_FAILED;   // a single output row does not fit
    }
    uint32_t coBlocks = (cout + coBlock - 1) / coBlock;
    uint32_t items = n * coBlocks * hout;

    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t perCore = (items + cores - 1) / cores;
    uint32_t blocks = (items + perCore - 1) / perCore;

    tiling.set_n(n);
    tiling.set_cin(cin);
    tiling.set_hin(hin);
    tiling.set_win(win);
    tiling.set_cout(cout);
    tiling.set_kh(kh);
    tiling.set_kw(kw);
    tiling.set_hout(hout);
    tiling.set_wout(wout);
    tiling.set_woutPad(woutPad);
    tiling.set_coBlock(coBlock);
    tiling.set_coBlocks(coBlocks);
    tiling.set_workItems(items);
    tiling.set_itemsPerCore(perCore);

    ctx->SetTilingKey(half ? TILING_KEY_FP16 : TILING_KEY_FP32);
    ctx->SetBlockDim(blocks);
    tiling.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    *ctx->GetWorkspaceSizes(1) = 0;
    return ge::GRAPH_SUCCESS;
}
}
