#include "channelwise_conv2d_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static inline uint32_t RoundUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

ge::graphStatus ChannelwiseConv2dTilingFunc(gert::TilingContext *context)
{
    auto xs = context->GetInputShape(0)->GetStorageShape();
    auto ws = context->GetInputShape(1)->GetStorageShape();     // (C, 1, KH, KW)
    auto attrs = context->GetAttrs();
    const gert::ContinuousVector *strides = attrs->GetAttrPointer<gert::ContinuousVector>(0);
    const gert::ContinuousVector *pads = attrs->GetAttrPointer<gert::ContinuousVector>(1);
    const gert::ContinuousVector *dils = attrs->GetAttrPointer<gert::ContinuousVector>(2);
    const int64_t *sv = static_cast<const int64_t *>(strides->GetData());
    const int64_t *pv = static_cast<const int64_t *>(pads->GetData());
    const int64_t *dv = static_cast<const int64_t *>(dils->GetData());

    uint32_t n = xs.GetDim(0), c = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t kh = ws.GetDim(2), kw = ws.GetDim(3);
    if (ws.GetDim(0) != c) {
        return ge::GRAPH_FAILED;
    }
    uint32_t sh = sv[0], sw = sv[1], ph = pv[0], pw = pv[1], dh = dv[0], dw = dv[1];
    int64_t hout = (static_cast<int64_t>(h) + 2 * ph - dh * (kh - 1) - 1) / sh + 1;
    int64_t wout = (static_cast<int64_t>(w) + 2 * pw - dw * (kw - 1) - 1) / sw + 1;
    if (hout <= 0 || wout <= 0) {
        return ge::GRAPH_FAILED;
    }

    auto dt = context->GetInputDesc(0)->GetDataType();
    uint32_t esz = dt == ge::DT_FLOAT16 ? 2 : 4;
    uint32_t perBlk = 32 / esz;
    uint32_t leftPad = RoundUp(pw, perBlk);
    uint32_t maxIdx = leftPad + (wout - 1) * sw - pw + (kw - 1) * dw + 1;
    uint32_t rowLen = RoundUp(maxIdx > leftPad + w ? maxIdx : leftPad + w, perBlk);

    ChannelwiseConv2dTilingData td;
    td.set_planes(n * c);
    td.set_channels(c);
    td.set_hin(h);
    td.set_win(w);
    td.set_kh(kh);
    td.set_kw(kw);
    td.set_strideH(sh);
    td.set_strideW(sw);
    td.set_padH(ph);
    td.set_padW(pw);
    td.set_dilH(dh);
    td.set_dilW(dw);
    td.set_hout(hout);
    td.set_wout(wout);
    td.set_woutAlign(RoundUp(wout, perBlk));
    td.set_leftPad(leftPad);
    td.set_rowBufLen(rowLen);
    td.set_hasBias(context->GetOptionalInputShape(2) != nullptr ? 1 : 0);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint64_t need = (static_cast<uint64_t>(kh) * rowLen + 4ULL * td.get_woutAlign()) * esz +
                    static_cast<uint64_t>(kw) * td.get_woutAlign() * 4;
    if (need + 2048 > ub) {
        return ge::GRAPH_FAILED;
    }

    uint32_t rows = n * c * static_cast<uint32_t>(hout);
    uint32_t cores = plat.GetCoreNumAiv();
    if (rows < cores) {
        cores = rows;
    }
    td.set_rowsPerCore(rows / cores);
    td.set_rowsTail(rows % cores);

    context->SetBlockDim(cores);
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 1 : 0);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}
