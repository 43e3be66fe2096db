#include "deconv2d_shift_tanh_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus Deconv2dShiftTanhTiling(gert::TilingContext *context)
{
    auto xs = context->GetInputShape(0)->GetStorageShape();
    auto ws = context->GetInputShape(1)->GetStorageShape();
    auto *attrs = context->GetAttrs();
    uint32_t s = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    uint32_t p = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(1));
    uint32_t op = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(2));

    uint32_t n = xs.GetDim(0), ci = xs.GetDim(1), hi = xs.GetDim(2), wi = xs.GetDim(3);
    uint32_t co = ws.GetDim(1), k = ws.GetDim(2);
    if (s == 0 || op >= s || ws.GetDim(0) != ci || ws.GetDim(3) != k) {
        return ge::GRAPH_FAILED;
    }
    uint32_t ho = (hi - 1) * s - 2 * p + k + op;
    uint32_t wo = (wi - 1) * s - 2 * p + k + op;
    uint32_t wiPad = (wi + 7) / 8 * 8;
    uint32_t woPad = (wo + 7) / 8 * 8;

    // partial rows per channel tile: chanTile * k * wiPad floats; keep it around 64 KB
    uint32_t ct = 16;
    while (ct > 1 && ct * k * wiPad * sizeof(float) > 64 * 1024) ct >>= 1;
    if (ct > co) ct = co;
    uint32_t tiles = (co + ct - 1) / ct;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aiv = plat.GetCoreNumAiv();
    uint32_t items = n * tiles * ho;
    uint32_t blocks = items < aiv ? items : aiv;

    Deconv2dShiftTanhTilingData t;
    t.set_batch(n); t.set_cIn(ci); t.set_cOut(co);
    t.set_hIn(hi); t.set_wIn(wi); t.set_wInPad(wiPad);
    t.set_hOut(ho); t.set_wOut(wo); t.set_wOutPad(woPad);
    t.set_kernel(k); t.set_stride(s); t.set_padding(p);
    t.set_chanTile(ct); t.set_chanTiles(tiles);
    t.set_workItems(items); t.set_itemsPerCore((items + blocks - 1) / blocks);

    context->SetBlockDim(blocks);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    // Tanh needs a scratch buffer, allocated inside the kernel; no GM workspace
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
