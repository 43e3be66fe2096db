// Tiling for UpConv3dNormPool (transposed 3-D conv -> batch-stat BN -> 4x4x4 mean pool).
#include "up_conv3d_norm_pool_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static inline uint32_t Align8(uint32_t v) { return (v + 7U) / 8U * 8U; }

ge::graphStatus UpConv3dNormPoolTilingFunc(gert::TilingContext *context)
{
    const auto xs = context->GetInputShape(0)->GetStorageShape();   // [N, Cin, D, H, W]
    const auto wsh = context->GetInputShape(1)->GetStorageShape();  // [Cin, Cout, K, K, K]
    if (xs.GetDimNum() != 5 || wsh.GetDimNum() != 5) {
        return ge::GRAPH_FAILED;
    }
    const auto *attrs = context->GetAttrs();
    const uint32_t stride = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    const uint32_t pad = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(1));
    const float eps = *attrs->GetAttrPointer<float>(2);

    UpConv3dNormPoolTilingData td;
    const uint32_t n = xs.GetDim(0), cin = xs.GetDim(1);
    const uint32_t d = xs.GetDim(2), h = xs.GetDim(3), w = xs.GetDim(4);
    const uint32_t cout = wsh.GetDim(1), k = wsh.GetDim(2);
    if (wsh.GetDim(0) != cin || stride == 0 || pad + 1 > k) {
        return ge::GRAPH_FAILED;   // the zero-insertion scheme needs pad <= k - 1
    }

    const uint32_t od = (d - 1) * stride + k - 2 * pad;
    const uint32_t oh = (h - 1) * stride + k - 2 * pad;
    const uint32_t ow = (w - 1) * stride + k - 2 * pad;
    const uint32_t edge = k - 1 - pad;
    const uint32_t dilH = (h - 1) * stride + 1 + 2 * edge;
    const uint32_t dilW = (w - 1) * stride + 1 + 2 * edge;

    const uint32_t pd = od / 4, ph = oh / 4, pw = ow / 4;
    const uint32_t groups = (od + 3) / 4;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t tasks = n * cout * groups;
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > tasks) {
        cores = tasks;
    }
    const uint32_t statStride = Align8(2 * cout);

    td.set_batch(n); td.set_cin(cin); td.set_cout(cout);
    td.set_inD(d); td.set_inH(h); td.set_inW(w);
    td.set_ksize(k); td.set_stride(stride); td.set_pad(pad);
    td.set_outD(od); td.set_outH(oh); td.set_outW(ow); td.set_outWAlign(Align8(ow));
    td.set_dilH(dilH); td.set_dilWAlign(Align8(dilW));
    td.set_poolD(pd); td.set_poolH(ph); td.set_poolW(pw); td.set_poolWAlign(Align8(pw));
    td.set_depthGroups(groups);
    td.set_taskNum(tasks);
    td.set_coreNum(cores);
    td.set_statStride(statStride);
    td.set_eps(eps);

    context->SetBlockDim(cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    // per-core [sum, sumsq] per channel + system workspace for SyncAll
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize() + static_cast<size_t>(cores) * statStride * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}
