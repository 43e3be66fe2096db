#include "conv3d_hswish_gn_gap_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static inline uint32_t RoundUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

ge::graphStatus Conv3dHswishGnGapTilingFunc(gert::TilingContext* ctx)
{
    const gert::Shape& x = ctx->GetInputShape(0)->GetStorageShape();   // [N, Cin, D, H, W]
    const gert::Shape& w = ctx->GetInputShape(1)->GetStorageShape();   // [Cout, Cin, KD, KH, KW]
    if (x.GetDimNum() != 5 || w.GetDimNum() != 5 || x.GetDim(1) != w.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    const int64_t groups = *ctx->GetAttrs()->GetAttrPointer<int64_t>(0);
    const float eps = *ctx->GetAttrs()->GetAttrPointer<float>(1);
    const uint32_t cout = static_cast<uint32_t>(w.GetDim(0));
    if (groups <= 0 || cout % groups != 0) {
        return ge::GRAPH_FAILED;
    }
    for (int i = 2; i < 5; ++i) {
        if (x.GetDim(i) < w.GetDim(i)) {
            return ge::GRAPH_FAILED;
        }
    }

    Conv3dHswishGnGapTilingData td;
    td.set_batch(x.GetDim(0));
    td.set_cin(x.GetDim(1));
    td.set_cout(cout);
    td.set_inD(x.GetDim(2));
    td.set_inH(x.GetDim(3));
    td.set_inW(x.GetDim(4));
    td.set_kD(w.GetDim(2));
    td.set_kH(w.GetDim(3));
    td.set_kW(w.GetDim(4));
    const uint32_t od = x.GetDim(2) - w.GetDim(2) + 1;
    const uint32_t oh = x.GetDim(3) - w.GetDim(3) + 1;
    const uint32_t ow = x.GetDim(4) - w.GetDim(4) + 1;
    td.set_outD(od);
    td.set_outH(oh);
    td.set_outW(ow);
    const uint32_t rowStride = RoundUp(ow, 8);
    td.set_rowStride(rowStride);

    // UB: per channel one accumulator row + sum row + sum-of-squares row, plus its filter taps.
    const uint32_t taps = static_cast<uint32_t>(x.GetDim(1) * w.GetDim(2) * w.GetDim(3) * w.GetDim(4));
    const uint32_t bytesPerCh = (3 * rowStride + taps) * sizeof(float);
    uint32_t coBlock = (128 * 1024) / bytesPerCh;
    if (coBlock == 0) {
        return ge::GRAPH_FAILED;
    }
    coBlock = coBlock > cout ? cout : coBlock;
    td.set_coBlock(coBlock);
    td.set_groups(static_cast<uint32_t>(groups));
    td.set_coutAlign(RoundUp(cout, 8));
    td.set_eps(eps);

    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    const uint32_t n = x.GetDim(0);
    uint32_t cores = plat.GetCoreNumAiv();
    cores = n < cores ? n : cores;
    cores = cores == 0 ? 1 : cores;
    td.set_batchPerCore(n / cores);
    td.set_batchRem(n % cores);

    ctx->SetBlockDim(cores);
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());
    ctx->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
