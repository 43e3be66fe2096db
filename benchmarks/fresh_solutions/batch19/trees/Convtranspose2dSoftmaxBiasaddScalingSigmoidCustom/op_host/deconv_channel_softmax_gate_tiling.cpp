/*
 * Host tiling of DeconvChannelSoftmaxGate.
 *
 * The channel softmax needs every output channel of a pixel at once, so the
 * unit of work is one output image row (n, oh) for ALL output channels:
 * a [cout x woutAlign] fp32 block that lives in UB until it is written out.
 */
#include "deconv_channel_softmax_gate_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static inline int64_t Pick(const gert::ContinuousVector *v, size_t i, int64_t d)
{
    return (v != nullptr && v->GetSize() > i) ? reinterpret_cast<const int64_t *>(v->GetData())[i] : d;
}

ge::graphStatus DeconvChannelSoftmaxGateTiling(gert::TilingContext *context)
{
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &ws = context->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 4 || ws.GetDimNum() != 4 || xs.GetDim(1) != ws.GetDim(0)) {
        return ge::GRAPH_FAILED;
    }
    const auto *attrs = context->GetAttrs();
    const auto *strides = attrs->GetListInt(0);
    const auto *pads = attrs->GetListInt(1);
    const auto *outPads = attrs->GetListInt(2);
    const float *scalePtr = attrs->GetAttrPointer<float>(3);

    const uint32_t n = xs.GetDim(0), cin = xs.GetDim(1), hin = xs.GetDim(2), win = xs.GetDim(3);
    const uint32_t cout = ws.GetDim(1), kh = ws.GetDim(2), kw = ws.GetDim(3);
    const int64_t sh = Pick(strides, 0, 1), sw = Pick(strides, 1, 1);
    const int64_t ph = Pick(pads, 0, 0), pw = Pick(pads, 1, 0);
    const int64_t hout = (hin - 1) * sh - 2 * ph + kh + Pick(outPads, 0, 0);
    const int64_t wout = (win - 1) * sw - 2 * pw + kw + Pick(outPads, 1, 0);
    if (hout <= 0 || wout <= 0) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t woutAlign = (static_cast<uint32_t>(wout) + 7) / 8 * 8;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubBytes = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubBytes);
    const uint64_t needed = 4ULL * cout * woutAlign              // accumulator block
                          + 4ULL * kw * woutAlign * 2            // gathered lines + offset tables
                          + 4ULL * (8 + (win + 7) / 8 * 8)       // input line
                          + 4ULL * cout * ((kw + 7) / 8 * 8)     // weight slab
                          + 4ULL * woutAlign * 2                 // running max / sum
                          + 4ULL * ((cout + 7) / 8 * 8) * 2      // both bias vectors
                          + 4096;
    if (needed > ubBytes) {
        return ge::GRAPH_FAILED;
    }

    DeconvChannelSoftmaxGateTilingData t;
    t.set_batch(n);
    t.set_cin(cin);
    t.set_hin(hin);
    t.set_win(win);
    t.set_cout(cout);
    t.set_hout(static_cast<uint32_t>(hout));
    t.set_wout(static_cast<uint32_t>(wout));
    t.set_woutAlign(woutAlign);
    t.set_kh(kh);
    t.set_kw(kw);
    t.set_strideH(static_cast<uint32_t>(sh));
    t.set_strideW(static_cast<uint32_t>(sw));
    t.set_padH(static_cast<uint32_t>(ph));
    t.set_padW(static_cast<uint32_t>(pw));
    t.set_scale(scalePtr != nullptr ? *scalePtr : 1.0f);

    const uint32_t rows = n * static_cast<uint32_t>(hout);
    uint32_t aiv = plat.GetCoreNumAiv();
    aiv = aiv == 0 ? 1 : aiv;
    const uint32_t per = (rows + aiv - 1) / aiv;
    t.set_rowCount(rows);
    t.set_rowsPerCore(per);
    context->SetBlockDim((rows + per - 1) / per);

    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
