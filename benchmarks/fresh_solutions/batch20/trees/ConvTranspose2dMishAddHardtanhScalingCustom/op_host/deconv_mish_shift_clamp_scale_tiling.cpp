// Tiling for DeconvMishShiftClampScale.
// Unit of work = (n, block of output channels, output row). Within a unit every
// staged input row is reused by all channels of the block.
#include "deconv_mish_shift_clamp_scale_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static inline uint32_t RoundUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

ge::graphStatus DeconvMishShiftClampScaleTiling(gert::TilingContext *context)
{
    auto xs = context->GetInputShape(0)->GetStorageShape();
    auto ws = context->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 4 || ws.GetDimNum() != 4 || ws.GetDim(2) != ws.GetDim(3) || ws.GetDim(0) != xs.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    auto attrs = context->GetAttrs();
    const int64_t stride = *attrs->GetAttrPointer<int64_t>(0);
    const int64_t pad = *attrs->GetAttrPointer<int64_t>(1);
    const int64_t outPad = *attrs->GetAttrPointer<int64_t>(2);
    const float addValue = *attrs->GetAttrPointer<float>(3);
    const float scale = *attrs->GetAttrPointer<float>(4);
    const float lo = *attrs->GetAttrPointer<float>(5);
    const float hi = *attrs->GetAttrPointer<float>(6);
    if (stride < 1 || pad < 0 || outPad < 0 || outPad >= stride || lo > hi) {
        return ge::GRAPH_FAILED;
    }

    const uint32_t batch = xs.GetDim(0), cIn = xs.GetDim(1), hIn = xs.GetDim(2), wIn = xs.GetDim(3);
    const uint32_t cOut = ws.GetDim(1), k = ws.GetDim(2);
    const int64_t hOut = (int64_t)(hIn - 1) * stride - 2 * pad + k + outPad;
    const int64_t wOut = (int64_t)(wIn - 1) * stride - 2 * pad + k + outPad;
    if (hOut <= 0 || wOut <= 0) {
        return ge::GRAPH_FAILED;
    }

    const uint32_t elem = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    if (((int64_t)k - 1 - pad) / stride + 1 > (int64_t)(32 / elem)) {
        return ge::GRAPH_FAILED;   // positive shift must fit in DMA left padding
    }

    const uint32_t phaseLen = RoundUp((uint32_t)((wOut + stride - 1) / stride) + 1, 16);
    const uint32_t rowAlign = RoundUp((uint32_t)wOut, 16);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    // fixed part: staged input x2 (T) + fp32 copy + gather offsets + 3 fp32 scratch rows + output x2 (T)
    uint64_t fixed = 2ULL * phaseLen * elem + phaseLen * 4ULL + rowAlign * 4ULL + 3ULL * rowAlign * 4ULL +
                     2ULL * rowAlign * elem + 8 * 1024;
    uint64_t perCo = (uint64_t)stride * phaseLen * 4ULL;
    if (fixed + perCo > ub) {
        return ge::GRAPH_FAILED;
    }
    uint32_t coBlock = (uint32_t)((ub - fixed) / perCo);
    coBlock = coBlock > 32 ? 32 : coBlock;
    coBlock = coBlock > cOut ? cOut : coBlock;
    const uint32_t coBlockNum = (cOut + coBlock - 1) / coBlock;

    const uint32_t cores = plat.GetCoreNumAiv();
    const uint64_t units = (uint64_t)batch * coBlockNum * hOut;
    const uint32_t used = units < cores ? (uint32_t)units : cores;

    DeconvMishShiftClampScaleTilingData t;
    t.set_batch(batch);
    t.set_cIn(cIn);
    t.set_hIn(hIn);
    t.set_wIn(wIn);
    t.set_cOut(cOut);
    t.set_hOut((uint32_t)hOut);
    t.set_wOut((uint32_t)wOut);
    t.set_kSize(k);
    t.set_stride((uint32_t)stride);
    t.set_pad((uint32_t)pad);
    t.set_phaseLen(phaseLen);
    t.set_rowAlign(rowAlign);
    t.set_coBlock(coBlock);
    t.set_coBlockNum(coBlockNum);
    t.set_unitsPerCore((uint32_t)(units / used));
    t.set_unitsTail((uint32_t)(units % used));
    t.set_addValue(addValue);
    t.set_clipLo(lo);
    t.set_clipHi(hi);
    t.set_scale(scale);

    context->SetBlockDim(used);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
