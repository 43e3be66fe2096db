#include "deconv3d_bn_quad_pool_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t POOL_FACTOR = 4;   // two stacked AvgPool(2) == one AvgPool(4), floor mode
constexpr uint32_t RESERVED_UB = 8 * 1024;

inline uint32_t Align8(uint32_t v) { return (v + 7U) / 8U * 8U; }
}

ge::graphStatus Deconv3dBnQuadPoolTilingFunc(gert::TilingContext *context)
{
    const gert::StorageShape *xShape = context->GetInputShape(0);
    const gert::StorageShape *wShape = context->GetInputShape(1);
    if (xShape == nullptr || wShape == nullptr) {
        return ge::GRAPH_FAILED;
    }
    const auto &xs = xShape->GetStorageShape();
    const auto &ws = wShape->GetStorageShape();
    if (xs.GetDimNum() != 5 || ws.GetDimNum() != 5) {
        return ge::GRAPH_FAILED;
    }

    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    int64_t stride = *attrs->GetAttrPointer<int64_t>(0);
    int64_t pad = *attrs->GetAttrPointer<int64_t>(1);
    float eps = *attrs->GetAttrPointer<float>(2);

    uint32_t n = static_cast<uint32_t>(xs.GetDim(0));
    uint32_t cin = static_cast<uint32_t>(xs.GetDim(1));
    uint32_t d = static_cast<uint32_t>(xs.GetDim(2));
    uint32_t h = static_cast<uint32_t>(xs.GetDim(3));
    uint32_t w = static_cast<uint32_t>(xs.GetDim(4));
    uint32_t cout = static_cast<uint32_t>(ws.GetDim(1));
    uint32_t k = static_cast<uint32_t>(ws.GetDim(2));

    int64_t od = (static_cast<int64_t>(d) - 1) * stride - 2 * pad + k;
    int64_t oh = (static_cast<int64_t>(h) - 1) * stride - 2 * pad + k;
    int64_t ow = (static_cast<int64_t>(w) - 1) * stride - 2 * pad + k;
    if (od < static_cast<int64_t>(POOL_FACTOR) || oh < POOL_FACTOR || ow < POOL_FACTOR) {
        return ge::GRAPH_FAILED;
    }

    // UB budget: one input slice, one conv plane, one pooled plane, weights of one
    // output channel and a small reduce scratch.
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint64_t need = sizeof(float) * (Align8(h * w) + 2ULL * Align8(oh * ow) +
                    Align8((oh / POOL_FACTOR) * (ow / POOL_FACTOR)) +
                    Align8(cin * k * k * k) + 64);
    if (need + RESERVED_UB > ubSize) {
        return ge::GRAPH_FAILED;
    }

    uint32_t coreNum = platform.GetCoreNumAiv();
    uint32_t chPerCore = (cout + coreNum - 1) / coreNum;
    uint32_t used = (cout + chPerCore - 1) / chPerCore;

    Deconv3dBnQuadPoolTilingData tiling;
    tiling.set_batch(n);
    tiling.set_inChannels(cin);
    tiling.set_outChannels(cout);
    tiling.set_inD(d);
    tiling.set_inH(h);
    tiling.set_inW(w);
    tiling.set_outD(static_cast<uint32_t>(od));
    tiling.set_outH(static_cast<uint32_t>(oh));
    tiling.set_outW(static_cast<uint32_t>(ow));
    tiling.set_poolD(static_cast<uint32_t>(od) / POOL_FACTOR);
    tiling.set_poolH(static_cast<uint32_t>(oh) / POOL_FACTOR);
    tiling.set_poolW(static_cast<uint32_t>(ow) / POOL_FACTOR);
    tiling.set_kernel(k);
    tiling.set_stride(static_cast<uint32_t>(stride));
    tiling.set_pad(static_cast<uint32_t>(pad));
    tiling.set_chPerCore(chPerCore);
    tiling.set_usedCores(used);
    tiling.set_eps(eps);

    context->SetBlockDim(used);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *wsSizes = context->GetWorkspaceSizes(1);
    wsSizes[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
