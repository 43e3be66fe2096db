#include "volume_mean_pool_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
bool ReadTriple(const gert::RuntimeAttrs *attrs, size_t idx, uint32_t out[3])
{
    const gert::ContinuousVector *v = attrs->GetAttrPointer<gert::ContinuousVector>(idx);
    if (v == nullptr) return false;
    const int64_t *d = static_cast<const int64_t *>(v->GetData());
    if (v->GetSize() == 1) {
        out[0] = out[1] = out[2] = static_cast<uint32_t>(d[0]);
    } else if (v->GetSize() == 3) {
        for (int i = 0; i < 3; ++i) out[i] = static_cast<uint32_t>(d[i]);
    } else {
        return false;
    }
    return true;
}
}

ge::graphStatus VolumeMeanPoolTilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape &s = context->GetInputShape(0)->GetStorageShape();
    if (s.GetDimNum() != 5) return ge::GRAPH_FAILED;
    uint32_t k[3], st[3], pd[3];
    const auto *attrs = context->GetAttrs();
    if (!ReadTriple(attrs, 0, k) || !ReadTriple(attrs, 1, st) || !ReadTriple(attrs, 2, pd)) {
        return ge::GRAPH_FAILED;
    }
    uint32_t in[3] = {static_cast<uint32_t>(s.GetDim(2)), static_cast<uint32_t>(s.GetDim(3)),
                      static_cast<uint32_t>(s.GetDim(4))};
    uint32_t out[3];
    for (int i = 0; i < 3; ++i) {
        if (k[i] == 0 || st[i] == 0 || 2 * pd[i] > k[i] || in[i] + 2 * pd[i] < k[i]) return ge::GRAPH_FAILED;
        out[i] = (in[i] + 2 * pd[i] - k[i]) / st[i] + 1;  // floor mode
    }

    VolumeMeanPoolTilingData td;
    const uint32_t planes = static_cast<uint32_t>(s.GetDim(0) * s.GetDim(1));
    td.set_planes(planes);
    td.set_inD(in[0]);  td.set_inH(in[1]);  td.set_inW(in[2]);
    td.set_outD(out[0]); td.set_outH(out[1]); td.set_outW(out[2]);
    td.set_kD(k[0]);  td.set_kH(k[1]);  td.set_kW(k[2]);
    td.set_sD(st[0]); td.set_sH(st[1]); td.set_sW(st[2]);
    td.set_pD(pd[0]); td.set_pH(pd[1]); td.set_pW(pd[2]);
    const uint32_t wa = (in[2] + 7) / 8 * 8 + 8;   // at least 8 trailing zero slots for padded taps
    const uint32_t owa = (out[2] + 7) / 8 * 8;
    td.set_inWAligned(wa);
    td.set_outWAligned(owa);
    td.set_invWindow(1.0f / static_cast<float>(k[0] * k[1] * k[2]));

    // UB: kH input rows (x2 queue) + fp32 acc + kW gather tables + out row (x2) + tap
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint64_t need = (2ULL * k[1] * wa + wa + static_cast<uint64_t>(k[2] + 3) * owa) * sizeof(float);
    if (need + 8 * 1024 > ub) return ge::GRAPH_FAILED;

    uint64_t rows = static_cast<uint64_t>(planes) * out[0] * out[1];
    uint32_t cores = plat.GetCoreNumAiv();
    cores = cores == 0 ? 1 : cores;
    uint32_t per = static_cast<uint32_t>((rows + cores - 1) / cores);
    td.set_rowsPerCore(per);
    td.set_totalRows(static_cast<uint32_t>(rows));
    context->SetTilingKey(context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 1);
    context->SetBlockDim(static_cast<uint32_t>((rows + per - 1) / per));

    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}
