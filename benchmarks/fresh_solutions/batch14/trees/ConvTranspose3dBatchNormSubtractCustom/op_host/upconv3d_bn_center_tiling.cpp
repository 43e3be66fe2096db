#include "upconv3d_bn_center_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static inline uint32_t Align8(uint32_t v) { return (v + 7U) / 8U * 8U; }

ge::graphStatus UpConv3dBnCenterTiling(gert::TilingContext *context)
{
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &ws = context->GetInputShape(1)->GetStorageShape();
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    uint32_t stride = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    uint32_t pad = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(1));
    float eps = *attrs->GetAttrPointer<float>(2);

    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1);
    uint32_t id = xs.GetDim(2), ih = xs.GetDim(3), iw = xs.GetDim(4);
    uint32_t cout = ws.GetDim(1), ks = ws.GetDim(2);
    if (stride == 0 || ws.GetDim(0) != cin) {
        return ge::GRAPH_FAILED;
    }
    int64_t od = static_cast<int64_t>(id - 1) * stride - 2 * pad + ks;
    int64_t oh = static_cast<int64_t>(ih - 1) * stride - 2 * pad + ks;
    int64_t ow = static_cast<int64_t>(iw - 1) * stride - 2 * pad + ks;
    if (od <= 0 || oh <= 0 || ow <= 0) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t jobs = n * cout;
    uint32_t used = jobs < cores ? jobs : cores;

    UpConv3dBnCenterTilingData t;
    t.set_n(n); t.set_cin(cin); t.set_cout(cout);
    t.set_id(id); t.set_ih(ih); t.set_iw(iw); t.set_iwAlign(Align8(iw));
    t.set_od(od); t.set_oh(oh); t.set_ow(ow); t.set_owAlign(Align8(ow));
    t.set_ks(ks); t.set_k3Align(Align8(ks * ks * ks));
    t.set_stride(stride); t.set_pad(pad);
    t.set_jobs(jobs);
    t.set_jobsPerCore((jobs + used - 1) / used);
    t.set_chunk(8192);
    t.set_eps(eps);

    context->SetBlockDim(used);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());

    // user workspace: one 32 byte slot (sum, sum of squares) per output plane,
    // plus what the runtime needs for SyncAll
    size_t *wsz = context->GetWorkspaceSizes(1);
    wsz[0] = static_cast<size_t>(jobs) * 32 + plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
