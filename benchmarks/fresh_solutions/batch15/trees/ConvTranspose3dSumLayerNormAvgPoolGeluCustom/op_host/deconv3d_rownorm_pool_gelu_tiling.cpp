#include "deconv3d_rownorm_pool_gelu_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
inline uint32_t Align8(uint32_t v) { return (v + 7U) / 8U * 8U; }

// reads a 3-element ListInt attribute; a single value is broadcast to all three axes
bool Read3(const gert::RuntimeAttrs* attrs, size_t idx, uint32_t out[3], uint32_t dflt)
{
    out[0] = out[1] = out[2] = dflt;
    const gert::TypedContinuousVector<int64_t>* v = attrs->GetListInt(idx);
    if (v == nullptr || v->GetSize() == 0) return true;
    const int64_t* d = v->GetData();
    if (v->GetSize() == 1) {
        out[0] = out[1] = out[2] = static_cast<uint32_t>(d[0]);
        return true;
    }
    if (v->GetSize() != 3) return false;
    for (int i = 0; i < 3; ++i) out[i] = static_cast<uint32_t>(d[i]);
    return true;
}
}  // namespace

ge::graphStatus Deconv3dRowNormPoolGeluTilingFunc(gert::TilingContext* context)
{
    const auto& xs = context->GetInputShape(0)->GetStorageShape();
    const auto& ws = context->GetInputShape(1)->GetStorageShape();
    const auto& gs = context->GetInputShape(4)->GetStorageShape();
    if (xs.GetDimNum() != 5 || ws.GetDimNum() != 5) return ge::GRAPH_FAILED;

    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    uint32_t st[3], pad[3], opad[3];
    if (!Read3(attrs, 0, st, 1) || !Read3(attrs, 1, pad, 0) || !Read3(attrs, 2, opad, 0)) {
        return ge::GRAPH_FAILED;
    }
    const int64_t* poolAttr = attrs->GetAttrPointer<int64_t>(3);
    const float* epsAttr = attrs->GetAttrPointer<float>(4);
    uint32_t pool = poolAttr ? static_cast<uint32_t>(*poolAttr) : 2U;

    Deconv3dRowNormPoolGeluTiling t;
    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1), id = xs.GetDim(2), ih = xs.GetDim(3), iw = xs.GetDim(4);
    uint32_t cout = ws.GetDim(1), kd = ws.GetDim(2), kh = ws.GetDim(3), kw = ws.GetDim(4);
    uint32_t od = (id - 1) * st[0] - 2 * pad[0] + kd + opad[0];
    uint32_t oh = (ih - 1) * st[1] - 2 * pad[1] + kh + opad[1];
    uint32_t ow = (iw - 1) * st[2] - 2 * pad[2] + kw + opad[2];
    // the normalisation runs over the innermost axis, gamma/beta must match it
    if (static_cast<uint32_t>(gs.GetShapeSize()) != ow || pool == 0) return ge::GRAPH_FAILED;

    uint32_t poolD = od / pool, poolH = oh / pool, poolW = ow / pool;
    uint32_t iwAlign = Align8(iw), owAlign = Align8(ow), poolWAlign = Align8(poolW);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores == 0) cores = 1;

    uint32_t pairs = ((kd + st[0] - 1) / st[0]) * ((kh + st[1] - 1) / st[1]);
    uint32_t kkk = kd * kh * kw;
    uint64_t fixed = (static_cast<uint64_t>(kw) * iwAlign + 8) * 4     // lanes + zero slot
                   + static_cast<uint64_t>(owAlign) * 4 * 6            // row, pooled acc, gamma, beta, tmp x2
                   + static_cast<uint64_t>(kw) * owAlign * 4           // fold table
                   + static_cast<uint64_t>(pool) * poolWAlign * 4      // pooling table
                   + static_cast<uint64_t>(poolWAlign) * 4 * 2 + 1024; // output + reduce scratch
    uint64_t perCh = static_cast<uint64_t>(pairs) * iwAlign * 4 + Align8(kkk) * 4;
    uint64_t room = ub > fixed + 8192 ? ub - fixed - 8192 : 0;
    uint32_t ciChunk = static_cast<uint32_t>(room / perCh);
    if (ciChunk == 0) return ge::GRAPH_FAILED;
    if (ciChunk > cin) ciChunk = cin;

    uint32_t units = n * cout * poolD * poolH;
    uint32_t used = units < cores ? units : cores;
    if (used == 0) used = 1;
    uint32_t per = (units + used - 1) / used;
    used = (units + per - 1) / per;

    t.set_n(n); t.set_cin(cin); t.set_cout(cout);
    t.set_id(id); t.set_ih(ih); t.set_iw(iw);
    t.set_kd(kd); t.set_kh(kh); t.set_kw(kw);
    t.set_sd(st[0]); t.set_sh(st[1]); t.set_sw(st[2]);
    t.set_pd(pad[0]); t.set_ph(pad[1]); t.set_pw(pad[2]);
    t.set_od(od); t.set_oh(oh); t.set_ow(ow);
    t.set_pool(pool); t.set_poolD(poolD); t.set_poolH(poolH); t.set_poolW(poolW);
    t.set_iwAlign(iwAlign); t.set_owAlign(owAlign); t.set_poolWAlign(poolWAlign);
    t.set_ciChunk(ciChunk);
    t.set_totalUnits(units);
    t.set_unitsPerCore(per);
    t.set_eps(epsAttr ? *epsAttr : 1e-5f);

    context->SetBlockDim(used);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    size_t* wsz = context->GetWorkspaceSizes(1);
    wsz[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
