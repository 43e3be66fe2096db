#include "volume_conv_direct_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static uint32_t ListAt(const gert::ContinuousVector *v, size_t i, uint32_t dflt)
{
    if (v == nullptr || v->GetSize() == 0) return dflt;
    const int64_t *d = static_cast<const int64_t *>(v->GetData());
    return static_cast<uint32_t>(v->GetSize() == 1 ? d[0] : d[i]);
}

ge::graphStatus VolumeConvDirectTilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &fs = context->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 5 || fs.GetDimNum() != 5) return ge::GRAPH_FAILED;

    auto attrs = context->GetAttrs();
    const gert::ContinuousVector *strides = attrs->GetAttrPointer<gert::ContinuousVector>(0);
    const gert::ContinuousVector *pads = attrs->GetAttrPointer<gert::ContinuousVector>(1);
    const gert::ContinuousVector *dils = attrs->GetAttrPointer<gert::ContinuousVector>(2);
    uint32_t groups = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(3));

    VolumeConvDirectTilingData t;
    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1), d = xs.GetDim(2), h = xs.GetDim(3), w = xs.GetDim(4);
    uint32_t cout = fs.GetDim(0), kd = fs.GetDim(2), kh = fs.GetDim(3), kw = fs.GetDim(4);
    if (groups == 0 || cin % groups != 0 || cout % groups != 0 || fs.GetDim(1) * groups != cin) {
        return ge::GRAPH_FAILED;
    }
    uint32_t s[3], p[3], dl[3];
    for (size_t i = 0; i < 3; ++i) {
        s[i] = ListAt(strides, i, 1);
        p[i] = ListAt(pads, i, 0);
        dl[i] = ListAt(dils, i, 1);
    }
    int64_t od = (int64_t(d) + 2 * p[0] - dl[0] * (kd - 1) - 1) / s[0] + 1;
    int64_t oh = (int64_t(h) + 2 * p[1] - dl[1] * (kh - 1) - 1) / s[1] + 1;
    int64_t ow = (int64_t(w) + 2 * p[2] - dl[2] * (kw - 1) - 1) / s[2] + 1;
    if (od <= 0 || oh <= 0 || ow <= 0) return ge::GRAPH_FAILED;

    t.set_n(n); t.set_cin(cin); t.set_d(d); t.set_h(h); t.set_w(w);
    t.set_cout(cout); t.set_groups(groups);
    t.set_kd(kd); t.set_kh(kh); t.set_kw(kw);
    t.set_sd(s[0]); t.set_sh(s[1]); t.set_sw(s[2]);
    t.set_pd(p[0]); t.set_ph(p[1]); t.set_pw(p[2]);
    t.set_dd(dl[0]); t.set_dh(dl[1]); t.set_dw(dl[2]);
    t.set_od(od); t.set_oh(oh); t.set_ow(ow);
    t.set_owAlign((ow + 7) / 8 * 8);
    t.set_wAlign((w + 7) / 8 * 8);
    t.set_hasBias(context->GetOptionalInputShape(2) != nullptr ? 1 : 0);

    uint64_t rows = uint64_t(n) * cout * od * oh;
    uint32_t cores = plat.GetCoreNumAiv();
    if (rows < cores) cores = rows;
    t.set_rowsTotal(rows);
    t.set_rowsPerCore(rows / cores);
    t.set_rowsRemain(rows % cores);

    context->SetBlockDim(cores);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}
