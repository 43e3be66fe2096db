#include "channelwise_conv2d_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static constexpr uint32_t MAX_DENSE_COLS = 4096; // dense (stride-1) columns held in UB per step

ge::graphStatus ChannelwiseConv2dTiling(gert::TilingContext *context)
{
    auto xs = context->GetInputShape(0)->GetStorageShape();
    auto ws = context->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 4 || ws.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    const auto *attrs = context->GetAttrs();
    int64_t stride = *attrs->GetAttrPointer<int64_t>(0);
    int64_t pad = *attrs->GetAttrPointer<int64_t>(1);
    if (stride < 1 || pad < 0 || pad > 8) {
        // left/right padding is produced by the DMA padding feature (<= one 32B block)
        return ge::GRAPH_FAILED;
    }

    uint32_t n = xs.GetDim(0), c = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t oc = ws.GetDim(0);
    uint32_t k = ws.GetDim(2);
    if (ws.GetDim(1) != 1 || ws.GetDim(3) != k || oc % c != 0) {
        return ge::GRAPH_FAILED;
    }
    int64_t oh = (static_cast<int64_t>(h) + 2 * pad - k) / stride + 1;
    int64_t ow = (static_cast<int64_t>(w) + 2 * pad - k) / stride + 1;
    if (oh <= 0 || ow <= 0) {
        return ge::GRAPH_FAILED;
    }

    // Every output column needs `stride` dense columns, keep dense span under the UB budget.
    uint32_t colsPerTile = MAX_DENSE_COLS / static_cast<uint32_t>(stride);
    if (colsPerTile > static_cast<uint32_t>(ow)) {
        colsPerTile = static_cast<uint32_t>(ow);
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t planes = n * oc;
    if (cores > planes) {
        cores = planes;
    }
    uint32_t base = planes / cores;
    uint32_t rem = planes % cores;

    ChannelwiseConv2dTilingData td;
    td.set_batch(n);
    td.set_inChannels(c);
    td.set_multiplier(oc / c);
    td.set_inH(h);
    td.set_inW(w);
    td.set_outH(static_cast<uint32_t>(oh));
    td.set_outW(static_cast<uint32_t>(ow));
    td.set_ksize(k);
    td.set_stride(static_cast<uint32_t>(stride));
    td.set_pad(static_cast<uint32_t>(pad));
    td.set_outColsPerTile(colsPerTile);
    td.set_planesPerCore(rem == 0 ? base : base + 1);
    td.set_bigCores(rem == 0 ? cores : rem);

    context->SetBlockDim(cores);
    context->SetTilingKey(context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 1 : 0);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
