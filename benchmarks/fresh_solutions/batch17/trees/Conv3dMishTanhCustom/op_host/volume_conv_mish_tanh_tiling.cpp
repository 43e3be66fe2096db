#include "volume_conv_mish_tanh_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static uint32_t Pick(const gert::TypedContinuousVector<int64_t> *v, size_t i, uint32_t dflt)
{
    if (v == nullptr || v->GetSize() == 0) {
        return dflt;
    }
    return static_cast<uint32_t>(v->GetSize() == 1 ? v->GetData()[0] : v->GetData()[i]);
}

ge::graphStatus VolumeConvMishTanhTiling(gert::TilingContext *ctx)
{
    const gert::Shape &xs = ctx->GetInputShape(0)->GetStorageShape();
    const gert::Shape &ws = ctx->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 5 || ws.GetDimNum() != 5 || xs.GetDim(1) != ws.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    const auto *attrs = ctx->GetAttrs();
    const auto *st = attrs->GetListInt(0);
    const auto *pd = attrs->GetListInt(1);

    VolumeConvMishTanhTilingData t;
    t.set_batch(xs.GetDim(0));
    t.set_cin(xs.GetDim(1));
    t.set_cout(ws.GetDim(0));
    t.set_inD(xs.GetDim(2));
    t.set_inH(xs.GetDim(3));
    t.set_inW(xs.GetDim(4));
    t.set_kD(ws.GetDim(2));
    t.set_kH(ws.GetDim(3));
    t.set_kW(ws.GetDim(4));
    t.set_sD(Pick(st, 0, 1));
    t.set_sH(Pick(st, 1, 1));
    t.set_sW(Pick(st, 2, 1));
    t.set_pD(Pick(pd, 0, 0));
    t.set_pH(Pick(pd, 1, 0));
    t.set_pW(Pick(pd, 2, 0));
    const int64_t oD = (static_cast<int64_t>(t.get_inD()) + 2 * t.get_pD() - t.get_kD()) / t.get_sD() + 1;
    const int64_t oH = (static_cast<int64_t>(t.get_inH()) + 2 * t.get_pH() - t.get_kH()) / t.get_sH() + 1;
    const int64_t oW = (static_cast<int64_t>(t.get_inW()) + 2 * t.get_pW() - t.get_kW()) / t.get_sW() + 1;
    if (oD <= 0 || oH <= 0 || oW <= 0) {
        return ge::GRAPH_FAILED;
    }
    t.set_outD(oD);
    t.set_outH(oH);
    t.set_outW(oW);
    const uint32_t owA = (static_cast<uint32_t>(oW) + 7) / 8 * 8;
    t.set_outWAlign(owA);

    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    const uint32_t kVolA = (t.get_kD() * t.get_kH() * t.get_kW() + 7) / 8 * 8;
    const uint32_t inWA = (t.get_inW() + 7) / 8 * 8;
    // fixed: input line x2, gathered tap line, 2 activation temporaries
    const uint64_t fixedBytes = (2ULL * inWA + 3ULL * owA) * sizeof(float) + 4096;
    // per channel: accumulator line, output line x2, weights of one input channel
    const uint64_t perCo = (3ULL * owA + kVolA) * sizeof(float);
    uint32_t blk = static_cast<uint32_t>((ub - fixedBytes) / perCo);
    if (blk == 0) {
        return ge::GRAPH_FAILED;
    }
    blk = blk > t.get_cout() ? t.get_cout() : blk;
    t.set_coBlock(blk);
    t.set_lineCount(t.get_batch() * static_cast<uint32_t>(oD * oH));

    const uint32_t cores = plat.GetCoreNumAiv();
    ctx->SetBlockDim(t.get_lineCount() < cores ? t.get_lineCount() : cores);
    t.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(t.GetDataSize());
    ctx->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
