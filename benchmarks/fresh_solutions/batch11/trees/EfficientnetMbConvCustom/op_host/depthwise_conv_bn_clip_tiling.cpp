#include "depthwise_conv_bn_clip_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint64_t BAND_BUDGET_BYTES = 48 * 1024;   // staged input rows
constexpr uint64_t OUT_BUDGET_BYTES = 16 * 1024;    // output tile

inline uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }
} // namespace

ge::graphStatus DepthwiseConvBnClipTiling(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const auto &xs = context->GetInputShape(0)->GetStorageShape();
    if (xs.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    auto attrs = context->GetAttrs();
    const uint32_t k = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    const uint32_t s = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(1));
    const int64_t *padAttr = attrs->GetAttrPointer<int64_t>(2);
    const float *clip = attrs->GetAttrPointer<float>(3);
    const uint32_t p = (padAttr == nullptr || *padAttr < 0) ? (k - 1) / 2 : static_cast<uint32_t>(*padAttr);
    if (k == 0 || s == 0) {
        return ge::GRAPH_FAILED;
    }

    const uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    const uint32_t perBlock = BLOCK_BYTES / typeSize;

    DepthwiseConvBnClipTilingData td;
    const uint32_t B = xs.GetDim(0), C = xs.GetDim(1), H = xs.GetDim(2), W = xs.GetDim(3);
    const uint32_t Ho = (H + 2 * p - k) / s + 1;
    const uint32_t Wo = (W + 2 * p - k) / s + 1;
    td.set_batch(B);
    td.set_channels(C);
    td.set_inH(H);
    td.set_inW(W);
    td.set_outH(Ho);
    td.set_outW(Wo);
    td.set_outWAlign(AlignUp(Wo, perBlock));
    td.set_kernel(k);
    td.set_stride(s);
    td.set_pad(p);
    // One spare 32B block after every staged row holds zeros and serves the left/right padding.
    const uint32_t zeroCol = AlignUp(W, perBlock);
    td.set_zeroCol(zeroCol);
    td.set_rowPitch(zeroCol + perBlock);
    td.set_clipMax(clip == nullptr ? 6.0f : *clip);

    // Largest band of output rows whose input window and output tile fit the budgets.
    const uint64_t rowBytes = static_cast<uint64_t>(zeroCol + perBlock) * typeSize;
    const uint64_t outRowBytes = static_cast<uint64_t>(td.get_outWAlign()) * typeSize;
    uint32_t band = Ho;
    while (band > 1 && ((static_cast<uint64_t>(band - 1) * s + k) * rowBytes > BAND_BUDGET_BYTES ||
                        band * outRowBytes > OUT_BUDGET_BYTES)) {
        band = (band + 1) / 2;
    }
    if ((static_cast<uint64_t>(band - 1) * s + k) * rowBytes > BAND_BUDGET_BYTES) {
        return ge::GRAPH_FAILED;   // a single output row's window does not fit (very wide images)
    }
    td.set_bandRows(band);
    td.set_bandInRows((band - 1) * s + k);
    const uint32_t bandsPerPlane = (Ho + band - 1) / band;
    td.set_bandsPerPlane(bandsPerPlane);
    const uint32_t total = B * C * bandsPerPlane;
    td.set_totalBands(total);

    uint32_t cores = plat.GetCoreNumAiv();
    const uint32_t perCore = (total + cores - 1) / cores;
    cores = (total + perCore - 1) / perCore;
    td.set_bandsPerCore(perCore);

    context->SetBlockDim(cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
