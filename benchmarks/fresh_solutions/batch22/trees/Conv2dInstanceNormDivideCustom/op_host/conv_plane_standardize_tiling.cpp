#include "conv_plane_standardize_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

static inline uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

ge::graphStatus ConvPlaneStandardizeTilingFunc(gert::TilingContext *ctx)
{
    const gert::Shape &xs = ctx->GetInputShape(0)->GetStorageShape();   // N C H W
    const gert::Shape &ws = ctx->GetInputShape(1)->GetStorageShape();   // Co C kh kw
    if (xs.GetDimNum() != 4 || ws.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = xs.GetDim(0), c = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t co = ws.GetDim(0), kh = ws.GetDim(2), kw = ws.GetDim(3);
    if (ws.GetDim(1) != c || kh > h || kw > w) {
        return ge::GRAPH_FAILED;
    }
    uint32_t oh = h - kh + 1;
    uint32_t ow = w - kw + 1;

    const gert::RuntimeAttrs *attrs = ctx->GetAttrs();
    float divisor = *attrs->GetAttrPointer<float>(0);
    float eps = *attrs->GetAttrPointer<float>(1);
    if (divisor == 0.0f) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t planes = n * co;
    uint32_t per = (planes + cores - 1) / cores;
    uint32_t used = (planes + per - 1) / per;

    ConvPlaneStandardizeTiling t;
    t.set_batch(n);
    t.set_inC(c);
    t.set_inH(h);
    t.set_inW(w);
    t.set_outC(co);
    t.set_kH(kh);
    t.set_kW(kw);
    t.set_outH(oh);
    t.set_outW(ow);
    t.set_outWAlign(AlignUp(ow, 8));
    t.set_planesPerCore(per);
    t.set_totalPlanes(planes);
    t.set_normChunk(8192);
    t.set_eps(eps);
    t.set_invDivisor(1.0f / divisor);

    ctx->SetBlockDim(used);
    t.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(t.GetDataSize());
    size_t *wsz = ctx->GetWorkspaceSizes(1);
    wsz[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
