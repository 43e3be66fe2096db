/**
 * Host tiling for ConvNormActResidualLse.
 *
 * Work is split across AI cores by whole samples, because group normalisation needs the
 * statistics of a full (sample, group) slab before any element can be finished. The raw
 * convolution result is parked in a workspace between the two passes.
 */
#include "conv_norm_act_residual_lse_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t ALIGN_FLOATS = 8;
constexpr uint32_t EPI_TILE_MAX = 2048;
constexpr uint64_t UB_RESERVE = 8 * 1024;

inline uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }
} // namespace

ge::graphStatus ConvNormActResidualLseTilingFunc(gert::TilingContext *context)
{
    const gert::Shape &xShape = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &wShape = context->GetInputShape(1)->GetStorageShape();
    if (xShape.GetDimNum() != 4 || wShape.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    const auto *attrs = context->GetAttrs();
    const int64_t *groupsAttr = attrs->GetAttrPointer<int64_t>(0);
    const float *epsAttr = attrs->GetAttrPointer<float>(1);

    uint32_t n = static_cast<uint32_t>(xShape.GetDim(0));
    uint32_t cin = static_cast<uint32_t>(xShape.GetDim(1));
    uint32_t hin = static_cast<uint32_t>(xShape.GetDim(2));
    uint32_t win = static_cast<uint32_t>(xShape.GetDim(3));
    uint32_t cout = static_cast<uint32_t>(wShape.GetDim(0));
    uint32_t kh = static_cast<uint32_t>(wShape.GetDim(2));
    uint32_t kw = static_cast<uint32_t>(wShape.GetDim(3));
    uint32_t groups = groupsAttr == nullptr ? 1U : static_cast<uint32_t>(*groupsAttr);
    if (wShape.GetDim(1) != cin || kh > hin || kw > win || groups == 0 || cout % groups != 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t hout = hin - kh + 1;
    uint32_t wout = win - kw + 1;
    uint32_t rowStride = AlignUp(wout, ALIGN_FLOATS);

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = platform.GetCoreNumAiv();

    // UB budget of pass 1: shifted input rows, weights, per-channel sum / sum-of-squares rows,
    // two output row buffers. Reject what does not fit instead of silently overflowing.
    uint64_t pass1 = (static_cast<uint64_t>(cin) * kh * kw * rowStride +
                      AlignUp(cout * cin * kh * kw, ALIGN_FLOATS) + 2ULL * cout * rowStride +
                      2ULL * rowStride + AlignUp(cout, ALIGN_FLOATS) * 2) * sizeof(float);
    if (pass1 + UB_RESERVE > ubSize) {
        return ge::GRAPH_FAILED;
    }

    uint32_t hw = hout * wout;
    uint32_t epiTile = hw < EPI_TILE_MAX ? AlignUp(hw, ALIGN_FLOATS) : EPI_TILE_MAX;

    uint32_t usedCores = n < coreNum ? n : coreNum;
    if (usedCores == 0) {
        usedCores = 1;
    }

    ConvNormActResidualLseTilingData tiling;
    tiling.set_batch(n);
    tiling.set_inChannels(cin);
    tiling.set_inHeight(hin);
    tiling.set_inWidth(win);
    tiling.set_outChannels(cout);
    tiling.set_kernelH(kh);
    tiling.set_kernelW(kw);
    tiling.set_outHeight(hout);
    tiling.set_outWidth(wout);
    tiling.set_rowStride(rowStride);
    tiling.set_numGroups(groups);
    tiling.set_samplesPerCore(n / usedCores);
    tiling.set_tailSamples(n % usedCores);
    tiling.set_epiTileLen(epiTile);
    tiling.set_eps(epsAttr == nullptr ? 1e-5f : *epsAttr);

    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    // workspace: system area + raw conv output (N, Cout, Ho, Wo) in fp32
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = platform.GetLibApiWorkSpaceSize() + static_cast<size_t>(n) * cout * hw * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
