#include "volume_conv_leaky_clamp_gelu_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static inline uint32_t RoundUp8(uint32_t v) { return (v + 7U) / 8U * 8U; }

ge::graphStatus VolumeConvLeakyClampGeluTilingFunc(gert::TilingContext *ctx)
{
    auto xs = ctx->GetInputShape(0)->GetStorageShape();   // N, Ci, D, H, W
    auto ws = ctx->GetInputShape(1)->GetStorageShape();   // Co, Ci, kd, kh, kw
    if (xs.GetDimNum() != 5 || ws.GetDimNum() != 5 || xs.GetDim(1) != ws.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    VolumeConvLeakyClampGeluTiling t;
    uint32_t n = xs.GetDim(0), ci = xs.GetDim(1), d = xs.GetDim(2), h = xs.GetDim(3), w = xs.GetDim(4);
    uint32_t co = ws.GetDim(0), kd = ws.GetDim(2), kh = ws.GetDim(3), kw = ws.GetDim(4);
    if (d < kd || h < kh || w < kw) {
        return ge::GRAPH_FAILED;
    }
    uint32_t od = d - kd + 1, oh = h - kh + 1, ow = w - kw + 1;

    auto attrs = ctx->GetAttrs();
    const float *slope = attrs->GetAttrPointer<float>(0);
    const float *lo = attrs->GetAttrPointer<float>(1);
    const float *hi = attrs->GetAttrPointer<float>(2);

    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t cores = plat.GetCoreNumAiv();

    // Input slab = every tap (ci, kd, kh, kw) as a width-tile row.  Keep it under ~40% of UB.
    uint32_t taps = ci * kd * kh * kw;
    uint32_t widthTile = RoundUp8(ow);
    while (widthTile > 8 && static_cast<uint64_t>(taps) * widthTile * 4 > ub * 2 / 5) {
        widthTile = RoundUp8(widthTile / 2);
    }
    // Remaining space: weights (chanTile*taps) + accumulators (chanTile*widthTile) + gelu scratch
    uint64_t used = static_cast<uint64_t>(taps) * widthTile * 4 + 4096;  // slab + small params
    uint64_t perChan = (static_cast<uint64_t>(taps) + 2ULL * widthTile + 2) * 4;
    uint32_t chanTile = used < ub ? static_cast<uint32_t>((ub - used) / perChan) : 0;
    if (chanTile == 0) {
        return ge::GRAPH_FAILED;
    }
    chanTile = chanTile > co ? co : chanTile;

    uint32_t rows = n * od * oh;
    uint32_t used_cores = rows < cores ? rows : cores;
    if (used_cores == 0) used_cores = 1;

    t.set_batch(n);  t.set_inC(ci);  t.set_inD(d);  t.set_inH(h);  t.set_inW(w);
    t.set_outC(co);  t.set_kD(kd);   t.set_kH(kh);  t.set_kW(kw);
    t.set_outD(od);  t.set_outH(oh); t.set_outW(ow);
    t.set_rowsPerCore(rows / used_cores);
    t.set_rowsRemainder(rows % used_cores);
    t.set_widthTile(widthTile);
    t.set_chanTile(chanTile);
    t.set_negativeSlope(slope ? *slope : 0.01f);
    t.set_clampMin(lo ? *lo : -1.0f);
    t.set_clampMax(hi ? *hi : 1.0f);

    ctx->SetBlockDim(used_cores);
    t.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(t.GetDataSize());
    ctx->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
