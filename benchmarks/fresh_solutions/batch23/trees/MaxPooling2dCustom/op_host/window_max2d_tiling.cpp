#include "window_max2d_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

static inline uint32_t RoundUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

ge::graphStatus WindowMax2dTilingFunc(gert::TilingContext *ctx)
{
    const gert::Shape &xs = ctx->GetInputShape(0)->GetStorageShape();
    if (xs.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    const gert::RuntimeAttrs *attrs = ctx->GetAttrs();
    const int64_t k = *attrs->GetAttrPointer<int64_t>(0);
    const int64_t s = *attrs->GetAttrPointer<int64_t>(1);
    const int64_t p = *attrs->GetAttrPointer<int64_t>(2);
    const int64_t d = *attrs->GetAttrPointer<int64_t>(3);
    if (k <= 0 || s <= 0 || p < 0 || d <= 0 || 2 * p > k) {
        return ge::GRAPH_FAILED;
    }

    uint32_t n = xs.GetDim(0), c = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    int64_t span = d * (k - 1) + 1;
    int64_t oh = (static_cast<int64_t>(h) + 2 * p - span) / s + 1;
    int64_t ow = (static_cast<int64_t>(w) + 2 * p - span) / s + 1;
    if (oh <= 0 || ow <= 0) {
        return ge::GRAPH_FAILED;
    }

    uint32_t typeSize = ctx->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    uint32_t blkElems = 32 / typeSize;
    uint32_t padOff = RoundUp(static_cast<uint32_t>(p), blkElems);
    if (padOff == 0) {
        padOff = blkElems; // keep a guard block in front
    }
    uint32_t lineLen = RoundUp(padOff + w + static_cast<uint32_t>(p + span), blkElems);

    // UB: 2 input lines + accumulator + gather tmp + output (double) + offsets; must fit ~190KB
    uint64_t ubNeed = static_cast<uint64_t>(lineLen) * typeSize * 4 + RoundUp(ow, blkElems) * (typeSize * 3 + 4);
    if (ubNeed > 190 * 1024) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t totalRows = n * c * static_cast<uint32_t>(oh);
    uint32_t perCore = (totalRows + cores - 1) / cores;
    uint32_t used = (totalRows + perCore - 1) / perCore;

    WindowMax2dTiling t;
    t.set_planes(n * c);
    t.set_inH(h);
    t.set_inW(w);
    t.set_outH(static_cast<uint32_t>(oh));
    t.set_outW(static_cast<uint32_t>(ow));
    t.set_kSize(static_cast<uint32_t>(k));
    t.set_stride(static_cast<uint32_t>(s));
    t.set_pad(static_cast<uint32_t>(p));
    t.set_dilation(static_cast<uint32_t>(d));
    t.set_padOff(padOff);
    t.set_lineLen(lineLen);
    t.set_outWAlign(RoundUp(static_cast<uint32_t>(ow), blkElems));
    t.set_rowsPerCore(perCore);
    t.set_totalRows(totalRows);

    ctx->SetBlockDim(used);
    ctx->SetTilingKey(typeSize == 2 ? 1 : 0);
    t.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(t.GetDataSize());
    ctx->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
