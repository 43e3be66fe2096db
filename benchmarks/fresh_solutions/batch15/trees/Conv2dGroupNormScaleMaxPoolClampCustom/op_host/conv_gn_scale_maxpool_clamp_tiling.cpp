#include "conv_gn_scale_maxpool_clamp_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus ConvGnScaleMaxPoolClampTilingFunc(gert::TilingContext* context)
{
    auto xs = context->GetInputShape(0)->GetStorageShape();
    auto ws = context->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 4 || ws.GetDimNum() != 4) return ge::GRAPH_FAILED;

    auto attrs = context->GetAttrs();
    uint32_t groups = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    uint32_t pool = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(1));
    float lo = *attrs->GetAttrPointer<float>(2);
    float hi = *attrs->GetAttrPointer<float>(3);
    float eps = *attrs->GetAttrPointer<float>(4);

    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t cout = ws.GetDim(0), k = ws.GetDim(2);
    if (ws.GetDim(1) != cin || groups == 0 || cout % groups != 0 || pool == 0 || h < k || w < k) {
        return ge::GRAPH_FAILED;
    }
    uint32_t oh = h - k + 1, ow = w - k + 1;
    uint32_t owAlign = (ow + 7) / 8 * 8;
    uint32_t ph = oh / pool, pw = ow / pool;
    uint32_t cpg = cout / groups;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    // shifted input rows for every (ci, kh, kw) of one output row, twice (double buffer)
    uint64_t need = 2ULL * cin * k * k * owAlign * 4 + 1ULL * cpg * cin * k * k * 4 +
                    (4ULL + 2ULL * pool) * owAlign * 4 + 32 * 1024;
    if (need > ub) return ge::GRAPH_FAILED;

    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t units = n * groups;
    uint32_t used = units < cores ? units : cores;
    if (used == 0) used = 1;
    uint32_t per = (units + used - 1) / used;
    used = (units + per - 1) / per;

    ConvGnScaleMaxPoolClampTiling td;
    td.set_batch(n); td.set_cin(cin); td.set_cout(cout);
    td.set_h(h); td.set_w(w); td.set_k(k);
    td.set_oh(oh); td.set_ow(ow); td.set_owAlign(owAlign);
    td.set_groups(groups); td.set_chPerGroup(cpg);
    td.set_pool(pool); td.set_ph(ph); td.set_pw(pw); td.set_pwAlign((pw + 7) / 8 * 8);
    td.set_unitsPerCore(per); td.set_totalUnits(units);
    td.set_eps(eps); td.set_lo(lo); td.set_hi(hi);

    context->SetBlockDim(used);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    // raw convolution result is staged in workspace between the statistics pass and the output pass
    size_t* wsz = context->GetWorkspaceSizes(1);
    wsz[0] = plat.GetLibApiWorkSpaceSize() + static_cast<size_t>(n) * cout * oh * ow * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
