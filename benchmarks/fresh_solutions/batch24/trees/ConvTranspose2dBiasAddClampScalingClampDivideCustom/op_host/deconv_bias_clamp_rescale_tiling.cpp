// Tiling for DeconvBiasClampRescale: one work item = one output row (sample, oh), all channels.
#include "deconv_bias_clamp_rescale_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus DeconvBiasClampRescaleTiling(gert::TilingContext *context)
{
    auto xs = context->GetInputShape(0)->GetStorageShape();
    auto ws = context->GetInputShape(1)->GetStorageShape();   // (Cin, Cout, K, K)
    auto attrs = context->GetAttrs();
    int64_t stride = *attrs->GetAttrPointer<int64_t>(0);
    int64_t pad = *attrs->GetAttrPointer<int64_t>(1);
    int64_t outPad = *attrs->GetAttrPointer<int64_t>(2);
    float scale = *attrs->GetAttrPointer<float>(3);

    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1), hin = xs.GetDim(2), win = xs.GetDim(3);
    uint32_t cout = ws.GetDim(1), k = ws.GetDim(2);
    if (ws.GetDim(0) != cin || ws.GetDim(3) != k || stride <= 0 || scale == 0.0f) {
        return ge::GRAPH_FAILED;
    }
    // a negative input shift is realised with DataCopyPad left padding (max 7 floats)
    int64_t maxLeft = (static_cast<int64_t>(k) - 1 - pad + stride - 1) / stride;
    if (maxLeft > 7) {
        return ge::GRAPH_FAILED;
    }
    uint32_t hout = static_cast<uint32_t>((hin - 1) * stride - 2 * pad + k + outPad);
    uint32_t wout = static_cast<uint32_t>((win - 1) * stride - 2 * pad + k + outPad);
    uint32_t phase = (wout + stride - 1) / stride;
    phase = (phase + 7) / 8 * 8;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint64_t need = (static_cast<uint64_t>(cout) * stride * phase     // accumulators
                     + static_cast<uint64_t>(k) * k * phase           // shifted taps
                     + ((cout * k * k + 7) / 8 * 8)                   // weight slice
                     + 3ULL * ((wout + 7) / 8 * 8)) * 4;              // gather index + 2 out rows
    if (need + 4096 > ub) {
        return ge::GRAPH_FAILED;
    }

    uint32_t rows = n * hout;
    uint32_t cores = plat.GetCoreNumAiv();
    cores = rows < cores ? (rows == 0 ? 1 : rows) : cores;

    DeconvBiasClampRescaleTilingData td;
    td.set_n(n); td.set_cin(cin); td.set_hin(hin); td.set_win(win);
    td.set_cout(cout); td.set_k(k); td.set_stride(stride); td.set_pad(pad);
    td.set_hout(hout); td.set_wout(wout); td.set_phaseLen(phase);
    td.set_rowsPerCore(rows / cores);
    td.set_rowsExtra(rows % cores);
    td.set_scale(scale);

    context->SetBlockDim(cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}
