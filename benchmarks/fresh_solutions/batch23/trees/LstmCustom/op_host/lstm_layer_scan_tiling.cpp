#include "lstm_layer_scan_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus LstmLayerScanTiling(gert::TilingContext* context)
{
    // x: (B, T, I) batch-first, w_ih: (4H, I), w_hh: (4H, H)
    auto xs = context->GetInputShape(0)->GetStorageShape();
    auto whh = context->GetInputShape(4)->GetStorageShape();
    uint32_t B = xs.GetDim(0), T = xs.GetDim(1), I = xs.GetDim(2);
    uint32_t H = whh.GetDim(1);
    if (whh.GetDim(0) != 4 * H) {
        return ge::GRAPH_FAILED;
    }
    auto align8 = [](uint32_t v) { return (v + 7U) / 8U * 8U; };
    uint32_t ia = align8(I), ha = align8(H);
    uint32_t widest = ia > ha ? ia : ha;

    // UB plan (floats): 2 x rows*widest weights, rows*widest products,
    // 4H gates, x, h, c, + a few H-size temporaries. Keep it below ~180 KiB.
    uint32_t fixed = 4 * ha + ia + 8 * ha + 64;
    uint32_t budget = 180 * 1024 / sizeof(float);
    uint32_t rows = 32;
    while (rows > 1 && fixed + 3 * rows * widest > budget) {
        rows >>= 1;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t used = B < cores ? B : cores;
    uint32_t perCore = (B + used - 1) / used;
    used = (B + perCore - 1) / perCore;
    context->SetBlockDim(used);

    LstmLayerScanTilingData t;
    t.set_batch(B);
    t.set_seqLen(T);
    t.set_inputSize(I);
    t.set_hiddenSize(H);
    t.set_inputAlign(ia);
    t.set_hiddenAlign(ha);
    t.set_rowsPerLoad(rows);
    t.set_seqPerCore(perCore);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}
