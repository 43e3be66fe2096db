// Tiling for Upconv3dPoolAffine. One unit = one pooled depth slice of one (n, co).
#include "upconv3d_pool_affine_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static constexpr uint64_t UB_SLAB_LIMIT = 120 * 1024;

ge::graphStatus Upconv3dPoolAffineTilingFunc(gert::TilingContext *context)
{
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();   // N Cin D H W
    const gert::Shape &ws = context->GetInputShape(1)->GetStorageShape();   // Cin Cout K K K
    auto attrs = context->GetAttrs();
    uint32_t stride = static_cast<uint32_t>(*attrs->GetInt(0));
    uint32_t pad = static_cast<uint32_t>(*attrs->GetInt(1));
    uint32_t pool = static_cast<uint32_t>(*attrs->GetInt(2));
    float s1 = *attrs->GetFloat(3);
    float s2 = *attrs->GetFloat(4);
    if (stride == 0 || pool == 0) {
        return ge::GRAPH_FAILED;
    }

    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1), d = xs.GetDim(2), h = xs.GetDim(3), w = xs.GetDim(4);
    uint32_t cout = ws.GetDim(1), k = ws.GetDim(2);
    int64_t od = (static_cast<int64_t>(d) - 1) * stride - 2 * pad + k;
    int64_t oh = (static_cast<int64_t>(h) - 1) * stride - 2 * pad + k;
    int64_t ow = (static_cast<int64_t>(w) - 1) * stride - 2 * pad + k;
    if (od < pool || oh < pool || ow < pool) {
        return ge::GRAPH_FAILED;
    }
    uint32_t pd = od / pool, ph = oh / pool, pw = ow / pool;

    uint32_t dsz = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    uint32_t elemPerBlk = 32 / dsz;
    uint32_t planeStride = (h * w + elemPerBlk - 1) / elemPerBlk * elemPerBlk;
    uint32_t slabDepth = (pool + k - 2) / stride + 2;
    if (static_cast<uint64_t>(cin) * slabDepth * planeStride * (dsz + 4) > UB_SLAB_LIMIT) {
        return ge::GRAPH_FAILED;   // spatial plane too large for the slab strategy
    }

    Upconv3dPoolAffineTilingData t;
    t.set_batch(n); t.set_cin(cin); t.set_cout(cout);
    t.set_d(d); t.set_h(h); t.set_w(w);
    t.set_k(k); t.set_stride(stride); t.set_pad(pad); t.set_pool(pool);
    t.set_pd(pd); t.set_ph(ph); t.set_pw(pw);
    t.set_slabDepth(slabDepth);
    t.set_planeStride(planeStride);
    t.set_outPlaneAlign((ph * pw + 63) / 64 * 64);
    t.set_mulFactor(s2 * s1 / static_cast<float>(pool * pool * pool));
    t.set_scale1(s1);
    t.set_scale2(s2);
    uint32_t units = n * cout * pd;
    uint32_t cores = platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCoreNumAiv();
    cores = cores == 0 ? 1 : cores;
    uint32_t per = (units + cores - 1) / cores;
    t.set_units(units);
    t.set_unitsPerCore(per);

    context->SetBlockDim((units + per - 1) / per);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
