// Tiling for VolumeConvPoolLseRelu: one work item = one pooled output row (n, pd, ph).
#include "volume_conv_pool_lse_relu_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus VolumeConvPoolLseReluTilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubBytes = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubBytes);
    uint32_t coreNum = plat.GetCoreNumAiv();

    auto xs = context->GetInputShape(0)->GetStorageShape();   // [N, Ci, D, H, W]
    auto ws = context->GetInputShape(1)->GetStorageShape();   // [Co, Ci, k, k, k]
    if (xs.GetDimNum() != 5 || ws.GetDimNum() != 5 || xs.GetDim(1) != ws.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    auto attrs = context->GetAttrs();
    const int64_t *sPtr = attrs->GetAttrPointer<int64_t>(0);
    const int64_t *pPtr = attrs->GetAttrPointer<int64_t>(1);
    uint32_t s = sPtr ? static_cast<uint32_t>(*sPtr) : 1;
    uint32_t p = pPtr ? static_cast<uint32_t>(*pPtr) : 0;

    uint32_t n = xs.GetDim(0), ci = xs.GetDim(1), d = xs.GetDim(2), h = xs.GetDim(3), w = xs.GetDim(4);
    uint32_t co = ws.GetDim(0), k = ws.GetDim(2);
    if (p > 8 || s == 0 || d + 2 * p < k || h + 2 * p < k || w + 2 * p < k) {
        return ge::GRAPH_FAILED;
    }
    uint32_t cd = (d + 2 * p - k) / s + 1;
    uint32_t chh = (h + 2 * p - k) / s + 1;
    uint32_t cw = (w + 2 * p - k) / s + 1;
    uint32_t pd = cd / 2, ph = chh / 2, pw = cw / 2;
    if (pd == 0 || ph == 0 || pw == 0) {
        return ge::GRAPH_FAILED;
    }
    // full-resolution row must also cover (cw - 1) * s
    uint32_t full = (cw - 1) * s + 1;
    full = full > w ? full : w;
    uint32_t rowLen = (full + 16 + 7) / 8 * 8;
    uint32_t poolLen = (pw + 7) / 8 * 8;
    // acc[co] + pooled[co] + input row + lse scratch
    uint64_t need = (2ULL * co * rowLen + rowLen + 4ULL * poolLen + co * poolLen) * sizeof(float);
    if (need + 16 * 1024 > ubBytes) {
        return ge::GRAPH_FAILED;
    }

    VolumeConvPoolLseReluTilingData td;
    td.set_batch(n);
    td.set_cin(ci);
    td.set_cout(co);
    td.set_inD(d);
    td.set_inH(h);
    td.set_inW(w);
    td.set_ksize(k);
    td.set_stride(s);
    td.set_pad(p);
    td.set_convW(cw);
    td.set_poolD(pd);
    td.set_poolH(ph);
    td.set_poolW(pw);
    td.set_rowLen(rowLen);
    td.set_poolLen(poolLen);
    uint32_t items = n * pd * ph;
    uint32_t used = items < coreNum ? items : coreNum;
    td.set_itemsPerCore(items / used);
    td.set_itemsExtra(items % used);
    td.set_coreNum(used);

    context->SetBlockDim(used);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *wsz = context->GetWorkspaceSizes(1);
    wsz[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
