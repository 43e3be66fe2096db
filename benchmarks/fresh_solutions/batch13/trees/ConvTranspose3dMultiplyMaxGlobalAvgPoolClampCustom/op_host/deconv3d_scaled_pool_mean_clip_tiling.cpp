#include "deconv3d_scaled_pool_mean_clip_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

ge::graphStatus Deconv3dScaledPoolMeanClipTilingFunc(gert::TilingContext *context)
{
    const auto &x = context->GetInputShape(0)->GetStorageShape();
    const auto &w = context->GetInputShape(1)->GetStorageShape();
    if (x.GetDimNum() != 5 || w.GetDimNum() != 5 || w.GetDim(0) != x.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    // cubic kernels only
    if (w.GetDim(2) != w.GetDim(3) || w.GetDim(3) != w.GetDim(4)) {
        return ge::GRAPH_FAILED;
    }

    auto attrs = context->GetAttrs();
    const int64_t stride = *attrs->GetAttrPointer<int64_t>(0);
    const int64_t pad = *attrs->GetAttrPointer<int64_t>(1);
    const float scale = *attrs->GetAttrPointer<float>(2);
    const int64_t poolK = *attrs->GetAttrPointer<int64_t>(3);
    const float lower = *attrs->GetAttrPointer<float>(4);
    const float upper = *attrs->GetAttrPointer<float>(5);
    if (stride <= 0 || pad < 0 || poolK <= 0) {
        return ge::GRAPH_FAILED;
    }

    const int64_t k = w.GetDim(2);
    auto outDim = [&](int64_t in) { return (in - 1) * stride - 2 * pad + k; };
    const int64_t od = outDim(x.GetDim(2));
    const int64_t oh = outDim(x.GetDim(3));
    const int64_t ow = outDim(x.GetDim(4));
    const int64_t pd = od / poolK, ph = oh / poolK, pw = ow / poolK;
    if (pd <= 0 || ph <= 0 || pw <= 0) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    const uint32_t pairs = static_cast<uint32_t>(x.GetDim(0) * w.GetDim(1));
    if (cores > pairs) cores = pairs;
    if (cores == 0) cores = 1;

    const uint32_t taps = static_cast<uint32_t>(k * k * k);

    Deconv3dScaledPoolMeanClipTilingData t;
    t.set_batch(x.GetDim(0));
    t.set_cin(x.GetDim(1));
    t.set_cout(w.GetDim(1));
    t.set_inD(x.GetDim(2));
    t.set_inH(x.GetDim(3));
    t.set_inW(x.GetDim(4));
    t.set_ksize(static_cast<uint32_t>(k));
    t.set_stride(static_cast<uint32_t>(stride));
    t.set_pad(static_cast<uint32_t>(pad));
    t.set_poolK(static_cast<uint32_t>(poolK));
    t.set_poolD(static_cast<uint32_t>(pd));
    t.set_poolH(static_cast<uint32_t>(ph));
    t.set_poolW(static_cast<uint32_t>(pw));
    t.set_scale(scale);
    t.set_lower(lower);
    t.set_upper(upper);
    t.set_pairCount(pairs);
    t.set_pairsPerCore(pairs / cores);
    t.set_pairsExtra(pairs % cores);
    t.set_filterStride((taps + 7) / 8 * 8);

    context->SetBlockDim(cores);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}
