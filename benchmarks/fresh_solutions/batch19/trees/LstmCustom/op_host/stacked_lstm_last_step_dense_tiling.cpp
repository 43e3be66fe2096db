#include <algorithm>
#include "stacked_lstm_last_step_dense_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t GATES = 4;
uint32_t Pad8(uint32_t v) { return (v + 7) / 8 * 8; }
}

ge::graphStatus StackedLstmLastStepDenseTiling(gert::TilingContext *ctx)
{
    // inputs: 0 x[B,T,I] 1 h0[L,B,H] 2 c0[L,B,H] 3 w_ih_first[4H,I] 4 w_ih_rest[L-1,4H,H]
    //         5 w_hh[L,4H,H] 6 bias[L,4H] 7 fc_weight[O,H] 8 fc_bias[O]
    const gert::Shape &xs = ctx->GetInputShape(0)->GetStorageShape();
    const gert::Shape &hs = ctx->GetInputShape(1)->GetStorageShape();
    const gert::Shape &fs = ctx->GetInputShape(7)->GetStorageShape();
    if (xs.GetDimNum() != 3 || hs.GetDimNum() != 3 || hs.GetDim(1) != xs.GetDim(0)) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t B = xs.GetDim(0), T = xs.GetDim(1), I = xs.GetDim(2);
    const uint32_t L = hs.GetDim(0), H = hs.GetDim(2), O = fs.GetDim(0);
    if (T == 0 || L == 0) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    const uint32_t inPad = Pad8(I), hidPad = Pad8(H);
    const uint32_t rowLen = std::max(inPad, hidPad) + hidPad;

    // a core keeps 4 * units weight rows of rowLen; shrink the per-core share until it fits
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t units = (H + cores - 1) / cores;
    auto fits = [&](uint32_t u) {
        uint64_t w = (uint64_t)GATES * u * rowLen * 4;
        uint64_t misc = (uint64_t)B * rowLen * 4 * 2 + (uint64_t)GATES * u * 32 * 2 +
                        (uint64_t)B * Pad8(GATES * u) * 4 * 8 + 16 * 1024;
        return w + misc <= ub;
    };
    if (!fits(units)) {
        return ge::GRAPH_FAILED;   // would need more cores than available
    }
    const uint32_t used = (H + units - 1) / units;

    StackedLstmLastStepDenseTilingData td;
    td.set_batch(B); td.set_steps(T); td.set_inputSize(I); td.set_hidden(H);
    td.set_layers(L); td.set_outSize(O); td.set_inPad(inPad); td.set_hidPad(hidPad);
    td.set_rowLen(rowLen); td.set_unitsPerCore(units); td.set_usedCores(used);

    ctx->SetBlockDim(used);
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());

    // workspace: two layer-output sequences [B, T, H] (ping-pong) + two hidden-state slots [B, H]
    size_t *ws = ctx->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize() + ((size_t)2 * B * T * H + (size_t)2 * B * H) * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}
