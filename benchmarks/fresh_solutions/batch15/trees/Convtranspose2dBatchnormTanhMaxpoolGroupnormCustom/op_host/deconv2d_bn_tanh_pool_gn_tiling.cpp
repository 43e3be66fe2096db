#include "deconv2d_bn_tanh_pool_gn_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
inline uint32_t Pitch8(uint32_t v) { return (v + 7U) / 8U * 8U; }
}

ge::graphStatus Deconv2dBnTanhPoolGnTilingFunc(gert::TilingContext *context)
{
    const auto &xs = context->GetInputShape(0)->GetStorageShape();
    const auto &ws = context->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 4 || ws.GetDimNum() != 4) return ge::GRAPH_FAILED;
    const auto *attrs = context->GetAttrs();
    const uint32_t stride = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    const uint32_t pad = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(1));
    const uint32_t groups = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(2));
    const float bnEps = *attrs->GetAttrPointer<float>(3);
    const float gnEps = *attrs->GetAttrPointer<float>(4);

    Deconv2dBnTanhPoolGnTilingData t;
    const uint32_t n = xs.GetDim(0), cin = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    const uint32_t cout = ws.GetDim(1), k = ws.GetDim(2);
    const int64_t oh = static_cast<int64_t>(h - 1) * stride - 2 * pad + k;
    const int64_t ow = static_cast<int64_t>(w - 1) * stride - 2 * pad + k;
    if (groups == 0 || cout % groups != 0 || oh < 2 || ow < 2 || stride == 0) return ge::GRAPH_FAILED;

    t.set_n(n); t.set_cin(cin); t.set_cout(cout); t.set_h(h); t.set_w(w);
    t.set_wPitch(Pitch8(w + 1));
    t.set_oh(oh); t.set_ow(ow); t.set_owPitch(Pitch8(ow));
    t.set_ph(oh / 2); t.set_pw(ow / 2);
    t.set_k(k); t.set_stride(stride); t.set_pad(pad);
    t.set_groups(groups); t.set_bnEps(bnEps); t.set_gnEps(gnEps);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t cores = plat.GetCoreNumAiv();
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);

    // UB: input plane + K tables + gather row + per-channel conv plane + pooling scratch
    const uint64_t plane = static_cast<uint64_t>(oh) * Pitch8(ow);
    const uint64_t fixedBytes = 4ULL * (static_cast<uint64_t>(h) * Pitch8(w + 1) + k * Pitch8(ow) +
                                        Pitch8(ow) + 4 * plane + 256) + 8192;
    uint32_t chPerCore = (cout + cores - 1) / cores;
    while (chPerCore > 1 && fixedBytes + 4ULL * plane * chPerCore > ub) {
        chPerCore = (chPerCore + 1) / 2;
    }
    if (fixedBytes + 4ULL * plane * chPerCore > ub) return ge::GRAPH_FAILED;
    t.set_chPerCore(chPerCore);
    uint32_t used = (cout + chPerCore - 1) / chPerCore;
    // phase 3 splits (n, group) pairs across the same cores
    const uint64_t convElems = static_cast<uint64_t>(n) * cout * oh * ow;
    t.set_statsOffset(convElems);

    // all cores must take part in SyncAll, so launch the max of both phases' needs
    uint32_t gnUnits = n * groups;
    uint32_t blockDim = used;
    if (gnUnits > blockDim) blockDim = gnUnits < cores ? gnUnits : cores;
    context->SetBlockDim(blockDim);

    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    size_t *wsz = context->GetWorkspaceSizes(1);
    // raw conv output + 2 floats (sum, sumsq) per (n, c) of the pooled tensor
    wsz[0] = static_cast<size_t>(plat.GetLibApiWorkSpaceSize()) +
             (convElems + 2ULL * n * cout + 8) * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}
