#include "volume_conv_tanh_sigmoid_gate_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus VolumeConvTanhSigmoidGateTilingFunc(gert::TilingContext *ctx)
{
    const gert::Shape &xs = ctx->GetInputShape(0)->GetStorageShape();   // [N, Ci, D, H, W]
    const gert::Shape &ws = ctx->GetInputShape(1)->GetStorageShape();   // [Co, Ci, kD, kH, kW]
    if (xs.GetDimNum() != 5 || ws.GetDimNum() != 5 || xs.GetDim(1) != ws.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    VolumeConvTanhSigmoidGateTiling t;
    uint32_t n = xs.GetDim(0), ci = xs.GetDim(1), d = xs.GetDim(2), h = xs.GetDim(3), w = xs.GetDim(4);
    uint32_t co = ws.GetDim(0), kd = ws.GetDim(2), kh = ws.GetDim(3), kw = ws.GetDim(4);
    if (d < kd || h < kh || w < kw) {
        return ge::GRAPH_FAILED;
    }
    uint32_t od = d - kd + 1, oh = h - kh + 1, ow = w - kw + 1;
    uint32_t owAlign = (ow + 7) / 8 * 8;

    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    // UB users (floats): weights of one output channel, 2 x input slab (R + kh - 1 rows),
    // accumulator (R rows), output (R rows) + tmp for the activations (2 x R rows)
    uint64_t wBytes = ((uint64_t)ci * kd * kh * kw * 4 + 31) / 32 * 32;
    uint64_t budget = ub - wBytes - 8 * 1024;
    uint32_t rows = 1;
    while (rows < oh) {
        uint64_t need = (2ULL * (rows + 1 + kh - 1) + 4ULL * (rows + 1)) * owAlign * 4;
        if (need > budget || rows >= 64) break;
        ++rows;
    }
    uint32_t tilesPerPlane = (oh + rows - 1) / rows;
    uint32_t total = n * co * od * tilesPerPlane;
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t perCore = (total + cores - 1) / cores;
    uint32_t used = (total + perCore - 1) / perCore;

    t.set_batch(n); t.set_inC(ci); t.set_inD(d); t.set_inH(h); t.set_inW(w);
    t.set_outC(co); t.set_kD(kd); t.set_kH(kh); t.set_kW(kw);
    t.set_outD(od); t.set_outH(oh); t.set_outW(ow); t.set_outWAlign(owAlign);
    t.set_rowsPerTile(rows); t.set_tilesPerPlane(tilesPerPlane);
    t.set_totalTiles(total); t.set_tilesPerCore(perCore);

    ctx->SetBlockDim(used);
    t.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(t.GetDataSize());
    size_t *wsSize = ctx->GetWorkspaceSizes(1);
    wsSize[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}
