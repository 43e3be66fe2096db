// Tiling for AaBilinearResize: one (n, c) plane is the unit of work.
#include <cmath>
#include "aa_bilinear_resize_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static uint32_t Align64(uint32_t v) { return (v + 63U) / 64U * 64U; }

ge::graphStatus AaBilinearResizeTilingFunc(gert::TilingContext *ctx)
{
    const gert::Shape &xs = ctx->GetInputShape(0)->GetStorageShape();
    if (xs.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    const gert::ContinuousVector *sizeAttr = ctx->GetAttrs()->GetListInt(0);
    if (sizeAttr == nullptr || sizeAttr->GetSize() != 2) {
        return ge::GRAPH_FAILED;
    }
    const int64_t *sz = reinterpret_cast<const int64_t *>(sizeAttr->GetData());

    uint32_t planes = static_cast<uint32_t>(xs.GetDim(0) * xs.GetDim(1));
    uint32_t ih = static_cast<uint32_t>(xs.GetDim(2));
    uint32_t iw = static_cast<uint32_t>(xs.GetDim(3));
    uint32_t oh = static_cast<uint32_t>(sz[0]);
    uint32_t ow = static_cast<uint32_t>(sz[1]);
    if (oh == 0 || ow == 0 || iw > 8192 || ow > 8192) {
        return ge::GRAPH_FAILED;   // one row must fit into UB
    }

    // triangle filter: support 1 when upsampling, widened by the scale when downsampling
    float sh = static_cast<float>(ih) / oh;
    float sw = static_cast<float>(iw) / ow;
    float supH = sh >= 1.0f ? sh : 1.0f;
    float supW = sw >= 1.0f ? sw : 1.0f;
    uint32_t tapsH = static_cast<uint32_t>(std::ceil(supH)) * 2 + 1;
    uint32_t tapsW = static_cast<uint32_t>(std::ceil(supW)) * 2 + 1;

    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    cores = cores == 0 ? 1 : cores;
    uint32_t per = (planes + cores - 1) / cores;
    uint32_t used = (planes + per - 1) / per;

    AaBilinearResizeTilingData t;
    t.set_planes(planes);
    t.set_inH(ih);
    t.set_inW(iw);
    t.set_outH(oh);
    t.set_outW(ow);
    t.set_inWAlign(Align64(iw));
    t.set_outWAlign(Align64(ow));
    t.set_scaleH(sh);
    t.set_scaleW(sw);
    t.set_supportH(supH);
    t.set_supportW(supW);
    t.set_tapsH(tapsH);
    t.set_tapsW(tapsW);
    t.set_planesPerCore(per);

    ctx->SetBlockDim(used);
    t.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(t.GetDataSize());
    ctx->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
