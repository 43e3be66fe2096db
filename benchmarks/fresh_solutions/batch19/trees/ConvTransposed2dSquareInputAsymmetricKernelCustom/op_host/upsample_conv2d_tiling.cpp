/*
 * UpsampleConv2d tiling. Work is split by output planes (n, oc): a core
 * produces whole planes so the weight slice of one output channel is loaded
 * once per plane and reused for every output row of it.
 */
#include "upsample_conv2d_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus UpsampleConv2dTilingFunc(gert::TilingContext *context)
{
    const auto &x = context->GetInputShape(0)->GetStorageShape();
    const auto &w = context->GetInputShape(1)->GetStorageShape();
    if (x.GetDimNum() != 4 || w.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    const auto *attrs = context->GetAttrs();
    const int64_t stride = *attrs->GetAttrPointer<int64_t>(0);
    const auto *padList = attrs->GetListInt(1);
    const int64_t outPad = *attrs->GetAttrPointer<int64_t>(2);
    const int64_t groups = *attrs->GetAttrPointer<int64_t>(3);
    int64_t padH = 0, padW = 0;
    if (padList != nullptr && padList->GetSize() > 0) {
        const int64_t *pv = static_cast<const int64_t *>(padList->GetData());
        padH = pv[0];
        padW = padList->GetSize() > 1 ? pv[1] : pv[0];
    }
    if (stride <= 0 || groups <= 0 || x.GetDim(1) % groups != 0) {
        return ge::GRAPH_FAILED;
    }

    UpsampleConv2dTilingData tiling;
    tiling.set_batch(x.GetDim(0));
    tiling.set_inC(x.GetDim(1));
    tiling.set_inH(x.GetDim(2));
    tiling.set_inW(x.GetDim(3));
    tiling.set_outC(w.GetDim(1) * groups);
    tiling.set_kernelH(w.GetDim(2));
    tiling.set_kernelW(w.GetDim(3));
    const int64_t oh = (x.GetDim(2) - 1) * stride - 2 * padH + w.GetDim(2) + outPad;
    const int64_t ow = (x.GetDim(3) - 1) * stride - 2 * padW + w.GetDim(3) + outPad;
    if (oh <= 0 || ow <= 0) {
        return ge::GRAPH_FAILED;
    }
    tiling.set_outH(oh);
    tiling.set_outW(ow);
    tiling.set_stride(stride);
    tiling.set_padH(padH);
    tiling.set_padW(padW);
    tiling.set_groups(groups);
    tiling.set_useBias(context->GetOptionalInputShape(2) != nullptr);

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const uint64_t owA = (ow + 7) / 8 * 8;
    const uint64_t wiA = (x.GetDim(3) + 7) / 8 * 8;
    const uint64_t kA = (w.GetDim(2) * w.GetDim(3) + 7) / 8 * 8;
    const uint64_t need = 4 * (8 + wiA + owA * (2 + 1 + w.GetDim(3)) + (x.GetDim(1) / groups) * kA);
    if (need + 2048 > ubSize) {
        return ge::GRAPH_FAILED;
    }

    const uint32_t planes = tiling.get_batch() * tiling.get_outC();
    uint32_t coreNum = platform.GetCoreNumAiv();
    if (coreNum == 0) {
        coreNum = 1;
    }
    const uint32_t perCore = (planes + coreNum - 1) / coreNum;
    tiling.set_planeCount(planes);
    tiling.set_planesPerCore(perCore);
    context->SetBlockDim((planes + perCore - 1) / perCore);

    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
