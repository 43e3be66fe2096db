#include "conv_pool_sigmoid_total_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static inline uint32_t AlignUp8(uint32_t v) { return (v + 7U) & ~7U; }

ge::graphStatus ConvPoolSigmoidTotalTiling(gert::TilingContext *context)
{
    const auto &x = context->GetInputShape(0)->GetStorageShape();
    const auto &wt = context->GetInputShape(1)->GetStorageShape();
    const int64_t *poolAttr = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    uint32_t pool = poolAttr ? static_cast<uint32_t>(*poolAttr) : 2U;

    ConvPoolSigmoidTotalTilingData td;
    const uint32_t N = x.GetDim(0), C = x.GetDim(1), H = x.GetDim(2), W = x.GetDim(3);
    const uint32_t O = wt.GetDim(0), KH = wt.GetDim(2), KW = wt.GetDim(3);
    if (wt.GetDim(1) != C || H < KH || W < KW || pool == 0) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t OH = H - KH + 1, OW = W - KW + 1;
    const uint32_t PH = OH / pool, PW = OW / pool;
    if (PH == 0 || PW == 0) {
        return ge::GRAPH_FAILED;
    }

    auto ascend = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubBytes;
    ascend.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubBytes);
    const uint32_t pitch = AlignUp8(OW);
    const uint32_t ppitch = AlignUp8(PW);
    // band of G pooled rows needs: slab (x2) of G*pool+KH-1 rows, acc of G*pool rows, small vectors
    uint64_t fixedBytes = AlignUp8(C * KH * KW) * 4ULL + 6ULL * ppitch * 4 + 16 * 1024;
    uint32_t G = 1;
    while (G < PH) {
        uint64_t rowsNext = (uint64_t)(G + 1) * pool;
        uint64_t need = (2 * (rowsNext + KH - 1) + rowsNext) * pitch * 4ULL + fixedBytes;
        if (need > ubBytes) break;
        ++G;
    }

    uint32_t coreNum = ascend.GetCoreNumAiv();
    uint32_t units = N * O;
    uint32_t perCore = (units + coreNum - 1) / coreNum;
    uint32_t usedCores = (units + perCore - 1) / perCore;
    uint32_t batchPerCore = (N + usedCores - 1) / usedCores;

    td.set_n(N); td.set_cin(C); td.set_h(H); td.set_w(W); td.set_cout(O);
    td.set_kh(KH); td.set_kw(KW); td.set_convW(OW); td.set_convWPad(pitch);
    td.set_pool(pool); td.set_pooledH(PH); td.set_pooledW(PW); td.set_pooledWPad(ppitch);
    td.set_bandPooledRows(G); td.set_unitsPerCore(perCore); td.set_batchPerCore(batchPerCore);

    context->SetBlockDim(usedCores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    // user workspace: one partial sum per (n, cout)
    size_t *wsp = context->GetWorkspaceSizes(1);
    wsp[0] = ascend.GetLibApiWorkSpaceSize() + (size_t)units * sizeof(float) + 32;
    return ge::GRAPH_SUCCESS;
}
}
