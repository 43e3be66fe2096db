#include "deconv3d_row_norm_pool_gelu_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
inline uint32_t Up8(uint32_t v) { return (v + 7) / 8 * 8; }

bool ReadTriple(const gert::RuntimeAttrs* attrs, size_t idx, uint32_t out[3])
{
    const gert::ContinuousVector* v = attrs->GetAttrPointer<gert::ContinuousVector>(idx);
    if (v == nullptr || v->GetSize() != 3) {
        return false;
    }
    const int64_t* p = static_cast<const int64_t*>(v->GetData());
    for (size_t i = 0; i < 3; ++i) {
        if (p[i] < 0) {
            return false;
        }
        out[i] = static_cast<uint32_t>(p[i]);
    }
    return true;
}
}

ge::graphStatus Deconv3dRowNormPoolGeluTiling(gert::TilingContext* context)
{
    auto xs = context->GetInputShape(0)->GetStorageShape();   // (N, Ci, D, H, W)
    auto ws = context->GetInputShape(1)->GetStorageShape();   // (Ci, Co, KD, KH, KW)
    auto gs = context->GetInputShape(3)->GetStorageShape();   // (L)
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    uint32_t stride[3], pad[3], outPad[3], pool[3];
    if (!ReadTriple(attrs, 0, stride) || !ReadTriple(attrs, 1, pad) || !ReadTriple(attrs, 2, outPad) ||
        !ReadTriple(attrs, 3, pool)) {
        return ge::GRAPH_FAILED;
    }
    float addend = *attrs->GetAttrPointer<float>(4);
    float eps = *attrs->GetAttrPointer<float>(5);

    Deconv3dRowNormPoolGeluTilingData t;
    uint32_t in[3] = {(uint32_t)xs.GetDim(2), (uint32_t)xs.GetDim(3), (uint32_t)xs.GetDim(4)};
    uint32_t k[3] = {(uint32_t)ws.GetDim(2), (uint32_t)ws.GetDim(3), (uint32_t)ws.GetDim(4)};
    uint32_t out[3], pooled[3];
    for (int i = 0; i < 3; ++i) {
        out[i] = (in[i] - 1) * stride[i] + k[i] + outPad[i] - 2 * pad[i];
        if (pool[i] == 0 || out[i] < pool[i]) {
            return ge::GRAPH_FAILED;
        }
        pooled[i] = out[i] / pool[i];
    }
    // normalisation runs over the innermost (W) axis only
    if (gs.GetShapeSize() != out[2]) {
        return ge::GRAPH_FAILED;
    }

    t.set_n(xs.GetDim(0));
    t.set_ci(xs.GetDim(1));
    t.set_di(in[0]); t.set_hi(in[1]); t.set_wi(in[2]);
    t.set_co(ws.GetDim(1));
    t.set_kd(k[0]); t.set_kh(k[1]); t.set_kw(k[2]);
    t.set_sd(stride[0]); t.set_sh(stride[1]); t.set_sw(stride[2]);
    t.set_pd(pad[0]); t.set_ph(pad[1]); t.set_pw(pad[2]);
    t.set_dOut(out[0]); t.set_hOut(out[1]); t.set_wOut(out[2]);
    t.set_poolD(pool[0]); t.set_poolH(pool[1]); t.set_poolW(pool[2]);
    t.set_dPool(pooled[0]); t.set_hPool(pooled[1]); t.set_wPool(pooled[2]);
    t.set_wOutAlign(Up8(out[2]));
    t.set_wInAlign(Up8(in[2]));
    t.set_wPoolAlign(Up8(pooled[2]));
    uint32_t units = t.get_n() * t.get_co() * pooled[0] * pooled[1];
    t.set_units(units);
    t.set_addend(addend);
    t.set_eps(eps);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    context->SetBlockDim(units < cores ? units : cores);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}
