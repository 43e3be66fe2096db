// DilatedConv2d tiling.
//
// Work unit = one output row (n, oh) for a block of output channels. The fp32 accumulator for
// the block (coBlock x woutAlign) is sized to stay under ACC_BYTES of UB.
#include "dilated_conv2d_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint64_t ACC_BYTES = 96 * 1024;
constexpr uint32_t TILING_KEY_ROW = 1;     // stride_w == 1, small left pad: row-vector path
constexpr uint32_t TILING_KEY_POINT = 2;   // anything else: per-point fallback

static bool Pair(const gert::RuntimeAttrs *attrs, size_t idx, int64_t &a, int64_t &b, int64_t dflt)
{
    a = b = dflt;
    const gert::ContinuousVector *v = attrs->GetListInt(idx);
    if (v == nullptr || v->GetSize() == 0) {
        return true;
    }
    const int64_t *d = reinterpret_cast<const int64_t *>(v->GetData());
    a = d[0];
    b = v->GetSize() > 1 ? d[1] : d[0];
    return a >= 0 && b >= 0;
}

ge::graphStatus DilatedConv2dTilingFunc(gert::TilingContext *context)
{
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();   // N C H W
    const gert::Shape &ws = context->GetInputShape(1)->GetStorageShape();   // Co C KH KW
    const auto *attrs = context->GetAttrs();
    int64_t sh, sw, ph, pw, dh, dw;
    if (!Pair(attrs, 0, sh, sw, 1) || !Pair(attrs, 1, ph, pw, 0) || !Pair(attrs, 2, dh, dw, 1) ||
        sh == 0 || sw == 0 || dh == 0 || dw == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t cout = ws.GetDim(0), kh = ws.GetDim(2), kw = ws.GetDim(3);
    if (ws.GetDim(1) != cin) {
        return ge::GRAPH_FAILED;
    }
    int64_t hout = (static_cast<int64_t>(h) + 2 * ph - dh * (kh - 1) - 1) / sh + 1;
    int64_t wout = (static_cast<int64_t>(w) + 2 * pw - dw * (kw - 1) - 1) / sw + 1;
    if (hout <= 0 || wout <= 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t dtypeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    uint32_t woutAlign = (static_cast<uint32_t>(wout) + 63) / 64 * 64;

    uint32_t coBlock = static_cast<uint32_t>(ACC_BYTES / (woutAlign * sizeof(float)));
    coBlock = coBlock == 0 ? 1 : coBlock;
    coBlock = coBlock > cout ? cout : coBlock;
    coBlock = coBlock > 64 ? 64 : coBlock;
    uint32_t coBlocks = (cout + coBlock - 1) / coBlock;

    uint32_t units = n * static_cast<uint32_t>(hout) * coBlocks;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv() == 0 ? 1 : plat.GetCoreNumAiv();
    uint32_t per = (units + cores - 1) / cores;

    // the row path zero-fills the left border through DataCopyPad, which is limited to 32 bytes
    bool rowPath = (sw == 1) && (pw * dtypeSize <= 32);
    context->SetTilingKey(rowPath ? TILING_KEY_ROW : TILING_KEY_POINT);

    DilatedConv2dTilingData td;
    td.set_n(n); td.set_cin(cin); td.set_h(h); td.set_w(w);
    td.set_cout(cout); td.set_kh(kh); td.set_kw(kw);
    td.set_strideH(sh); td.set_strideW(sw);
    td.set_padH(ph); td.set_padW(pw);
    td.set_dilH(dh); td.set_dilW(dw);
    td.set_hout(static_cast<uint32_t>(hout));
    td.set_wout(static_cast<uint32_t>(wout));
    td.set_woutAlign(woutAlign);
    td.set_coBlock(coBlock);
    td.set_coBlocks(coBlocks);
    td.set_hasBias(context->GetOptionalInputShape(2) != nullptr ? 1 : 0);
    td.set_unitsTotal(units);
    td.set_unitsPerCore(per);

    context->SetBlockDim((units + per - 1) / per);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
