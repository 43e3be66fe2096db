#include "deconv3d_act_scale_pool_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
inline uint32_t Align16(uint32_t a) { return (a + 15) / 16 * 16; }

enum AttrIdx : size_t { ATTR_STRIDES = 0, ATTR_PADS, ATTR_OUT_PADS, ATTR_SLOPE, ATTR_POOL };

void Triple(const gert::RuntimeAttrs *attrs, size_t idx, int64_t dflt, int64_t v[3])
{
    v[0] = v[1] = v[2] = dflt;
    const gert::ContinuousVector *cv = attrs ? attrs->GetAttrPointer<gert::ContinuousVector>(idx) : nullptr;
    if (cv != nullptr && cv->GetSize() == 3) {
        const int64_t *p = static_cast<const int64_t *>(cv->GetData());
        v[0] = p[0];
        v[1] = p[1];
        v[2] = p[2];
    }
}
}  // namespace

ge::graphStatus Deconv3dActScalePoolTilingFunc(gert::TilingContext *context)
{
    Deconv3dActScalePoolTiling td;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = platform.GetCoreNumAiv();
    uint64_t ub = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);

    const auto &xs = context->GetInputShape(0)->GetStorageShape();
    const auto &ws = context->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 5 || ws.GetDimNum() != 5 || ws.GetDim(0) != xs.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    int64_t st[3], pd[3], op[3];
    Triple(attrs, ATTR_STRIDES, 1, st);
    Triple(attrs, ATTR_PADS, 0, pd);
    Triple(attrs, ATTR_OUT_PADS, 0, op);
    float slope = 0.01f;
    int64_t pool = 2;
    if (attrs != nullptr) {
        if (attrs->GetAttrPointer<float>(ATTR_SLOPE) != nullptr) {
            slope = *attrs->GetAttrPointer<float>(ATTR_SLOPE);
        }
        if (attrs->GetAttrPointer<int64_t>(ATTR_POOL) != nullptr) {
            pool = *attrs->GetAttrPointer<int64_t>(ATTR_POOL);
        }
    }
    if (pool <= 0) {
        return ge::GRAPH_FAILED;
    }

    uint32_t in[3], k[3], conv[3], pooled[3];
    for (int a = 0; a < 3; ++a) {
        in[a] = static_cast<uint32_t>(xs.GetDim(2 + a));
        k[a] = static_cast<uint32_t>(ws.GetDim(2 + a));
        int64_t o = (static_cast<int64_t>(in[a]) - 1) * st[a] - 2 * pd[a] + k[a] + op[a];
        if (o < pool) {
            return ge::GRAPH_FAILED;
        }
        conv[a] = static_cast<uint32_t>(o);
        pooled[a] = conv[a] / static_cast<uint32_t>(pool);
    }
    uint32_t n = xs.GetDim(0), ci = xs.GetDim(1), co = ws.GetDim(1);

    uint32_t rowPitch = Align16(conv[2]);
    uint32_t poolPitch = Align16(pooled[2]);
    uint32_t inPitch = Align16(in[2] + 1);
    uint32_t k3 = k[0] * k[1] * k[2];

    // UB budget: fixed part + per-output-channel part (conv row, running max, pooled row, output row)
    uint64_t fixed = 2ULL * inPitch * 4 + inPitch * 4 + rowPitch * 4 +
                     static_cast<uint64_t>(k[2]) * rowPitch * 4 +       // gather tables over conv row
                     static_cast<uint64_t>(pool) * poolPitch * 4 +      // pooling gather tables
                     poolPitch * 4 + 4096;
    uint64_t perCo = static_cast<uint64_t>(rowPitch) * 4 * 2 + poolPitch * (4 + 4) + k3 * 4 * 2;
    uint32_t coTile = co;
    if (fixed + perCo * coTile > ub) {
        coTile = static_cast<uint32_t>((ub - fixed) / perCo);
        while (coTile > 1 && co % coTile != 0) {
            --coTile;
        }
        if (coTile == 0) {
            return ge::GRAPH_FAILED;
        }
    }
    uint32_t coBlocks = co / coTile;
    uint32_t units = n * pooled[0] * pooled[1] * coBlocks;
    uint32_t perCore = CeilDiv(units, cores);

    td.set_batch(n);
    td.set_cin(ci);
    td.set_cout(co);
    td.set_din(in[0]);
    td.set_hin(in[1]);
    td.set_win(in[2]);
    td.set_convD(conv[0]);
    td.set_convH(conv[1]);
    td.set_convW(conv[2]);
    td.set_poolD(pooled[0]);
    td.set_poolH(pooled[1]);
    td.set_poolW(pooled[2]);
    td.set_kd(k[0]);
    td.set_kh(k[1]);
    td.set_kw(k[2]);
    td.set_sd(st[0]);
    td.set_sh(st[1]);
    td.set_sw(st[2]);
    td.set_pd(pd[0]);
    td.set_ph(pd[1]);
    td.set_pw(pd[2]);
    td.set_pool(static_cast<uint32_t>(pool));
    td.set_slope(slope);
    td.set_hasBias(context->GetOptionalInputShape(2) != nullptr ? 1 : 0);
    td.set_coTile(coTile);
    td.set_coBlocks(coBlocks);
    td.set_rowPitch(rowPitch);
    td.set_poolPitch(poolPitch);
    td.set_inPitch(inPitch);
    td.set_totalUnits(units);
    td.set_unitsPerCore(perCore);

    context->SetBlockDim(CeilDiv(units, perCore));
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *wsz = context->GetWorkspaceSizes(1);
    wsz[0] = platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
