#include "upscale_affine_warp_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static uint32_t Align8(uint32_t v) { return (v + 7) / 8 * 8; }

ge::graphStatus UpscaleAffineWarpTilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &ts = context->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 4 || ts.GetDimNum() != 3 || ts.GetDim(1) != 2 || ts.GetDim(2) != 3 ||
        ts.GetDim(0) != xs.GetDim(0)) {
        return ge::GRAPH_FAILED;
    }
    const int64_t factor = *context->GetAttrs()->GetAttrPointer<int64_t>(0);
    if (factor < 1) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t n = xs.GetDim(0), c = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    const uint32_t oh = h * factor, ow = w * factor;

    UpscaleAffineWarpTilingData td;
    td.set_batch(n);
    td.set_channels(c);
    td.set_inH(h);
    td.set_inW(w);
    td.set_outH(oh);
    td.set_outW(ow);
    td.set_inWAligned(Align8(w));
    td.set_outWAligned(Align8(ow));
    // 8 zero columns on the left (keeps rows 32B aligned), >= 2 on the right
    const uint32_t padStride = 8 + Align8(ow + 2);
    td.set_padStride(padStride);
    td.set_invScale(1.0f / static_cast<float>(factor));

    // UB: source plane + padded upscaled plane (+1 top, +2 bottom rows)
    //     + about 20 row-length vectors
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint64_t need = (static_cast<uint64_t>(h) * Align8(w) + static_cast<uint64_t>(oh + 3) * padStride +
                     20ULL * Align8(ow) + 2ULL * Align8(w)) * sizeof(float);
    if (need + 8 * 1024 > ub) {
        return ge::GRAPH_FAILED; // plane too large for the resident-plane scheme
    }

    uint32_t cores = plat.GetCoreNumAiv();
    cores = cores == 0 ? 1 : cores;
    uint32_t planes = n * c;
    uint32_t per = (planes + cores - 1) / cores;
    td.set_planesPerCore(per);
    context->SetBlockDim((planes + per - 1) / per);

    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}
