/*
 * Tiling for Deconv3dPoolSoftmaxSwishMax.
 * A work item is one pooled output row (n, dp, hp): the kernel recomputes the poolK x poolK
 * deconvolution rows feeding it, so nothing but the final result ever touches GM.
 */
#include "deconv3d_pool_softmax_swish_max_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus Deconv3dPoolSoftmaxSwishMaxTilingFunc(gert::TilingContext *context)
{
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &wsh = context->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 5 || wsh.GetDimNum() != 5) {
        return ge::GRAPH_FAILED;
    }
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    int64_t s = *attrs->GetAttrPointer<int64_t>(0);
    int64_t p = *attrs->GetAttrPointer<int64_t>(1);
    int64_t op = *attrs->GetAttrPointer<int64_t>(2);
    int64_t pk = *attrs->GetAttrPointer<int64_t>(3);
    int64_t ps = *attrs->GetAttrPointer<int64_t>(4);
    int64_t pp = *attrs->GetAttrPointer<int64_t>(5);
    if (s <= 0 || pk <= 0 || ps <= 0 || pp != 0) {
        return ge::GRAPH_FAILED;   // only un-padded max pooling is fused
    }
    uint32_t k = static_cast<uint32_t>(wsh.GetDim(2));
    if ((static_cast<int64_t>(k) - 1 - p + s - 1) / s > 7) {
        return ge::GRAPH_FAILED;
    }

    auto outDim = [&](int64_t in) { return (in - 1) * s - 2 * p + k + op; };
    int64_t dout = outDim(xs.GetDim(2));
    int64_t hout = outDim(xs.GetDim(3));
    int64_t wout = outDim(xs.GetDim(4));
    uint32_t dp = static_cast<uint32_t>((dout - pk) / ps + 1);
    uint32_t hp = static_cast<uint32_t>((hout - pk) / ps + 1);
    uint32_t wp = static_cast<uint32_t>((wout - pk) / ps + 1);

    Deconv3dPoolSoftmaxSwishMaxTilingData td;
    td.set_batch(xs.GetDim(0));
    td.set_cin(xs.GetDim(1));
    td.set_din(xs.GetDim(2));
    td.set_hin(xs.GetDim(3));
    td.set_win(xs.GetDim(4));
    td.set_cout(wsh.GetDim(1));
    td.set_ksize(k);
    td.set_stride(s);
    td.set_pad(p);
    td.set_wout(static_cast<uint32_t>(wout));
    uint32_t phase = static_cast<uint32_t>((wout + s - 1) / s);
    td.set_phaseLen((phase + 7) / 8 * 8);
    td.set_poolK(pk);
    td.set_poolS(ps);
    td.set_dp(dp);
    td.set_hp(hp);
    td.set_wp(wp);
    td.set_wpAlign((wp + 7) / 8 * 8);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t rows = static_cast<uint32_t>(xs.GetDim(0)) * dp * hp;
    uint32_t cores = plat.GetCoreNumAiv();
    if (rows < cores) {
        cores = rows > 0 ? rows : 1;
    }
    td.set_rowsPerCore(rows / cores);
    td.set_rowsExtra(rows % cores);

    context->SetBlockDim(cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}
