/*
 * Tiling for DeconvPooledLseScale.
 *
 * With zero padding every input pixel hits every kernel tap inside the output, so the spatial
 * mean of a transposed convolution collapses to
 *     mean[n, co] = bias_conv[co] + 1/(Ho*Wo) * sum_ci (sum_hw x[n, ci]) * (sum_k w[ci, co, k]).
 * Phase 1 produces the per-plane sums (split over all cores), phase 2 the channel contraction
 * and log-sum-exp (split over the batch).
 */
#include "deconv_pooled_lse_scale_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus DeconvPooledLseScaleTilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aivNum = plat.GetCoreNumAiv();

    const auto &xs = context->GetInputShape(0)->GetStorageShape();   // N, Ci, H, W
    const auto &ws = context->GetInputShape(1)->GetStorageShape();   // Ci, Co, kh, kw
    if (xs.GetDimNum() != 4 || ws.GetDimNum() != 4 || xs.GetDim(1) != ws.GetDim(0)) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = xs.GetDim(0), ci = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t co = ws.GetDim(1), kh = ws.GetDim(2), kw = ws.GetDim(3);

    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    const int64_t *strideAttr = attrs->GetAttrPointer<int64_t>(0);
    const float *scaleAttr = attrs->GetAttrPointer<float>(1);
    uint32_t stride = (strideAttr == nullptr) ? 1 : static_cast<uint32_t>(*strideAttr);
    float scale = (scaleAttr == nullptr) ? 10.0f : *scaleAttr;

    uint64_t ho = static_cast<uint64_t>(h - 1) * stride + kh;
    uint64_t wo = static_cast<uint64_t>(w - 1) * stride + kw;

    DeconvPooledLseScaleTilingData td;
    td.set_batch(n);
    td.set_inChannels(ci);
    td.set_outChannels(co);
    td.set_planeSize(h * w);
    td.set_kernelArea(kh * kw);
    uint32_t planeTile = 16384;
    uint32_t planeAligned = (h * w + 63) / 64 * 64;
    td.set_planeTile(planeAligned < planeTile ? planeAligned : planeTile);

    uint32_t planes = n * ci;
    td.set_coreNum(aivNum);
    td.set_planesPerCore(planes / aivNum);
    td.set_planeRemainder(planes % aivNum);
    td.set_batchPerCore(n / aivNum);
    td.set_batchRemainder(n % aivNum);
    td.set_invOutArea(static_cast<float>(1.0 / static_cast<double>(ho * wo)));
    td.set_scale(scale);

    context->SetBlockDim(aivNum);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    size_t *wsSizes = context->GetWorkspaceSizes(1);
    // one 32B slot per (n, ci) plane sum
    wsSizes[0] = plat.GetLibApiWorkSpaceSize() + static_cast<size_t>(planes) * 32;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
