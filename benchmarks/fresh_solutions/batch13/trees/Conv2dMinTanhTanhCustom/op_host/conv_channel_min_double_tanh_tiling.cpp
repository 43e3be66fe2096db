#include "conv_channel_min_double_tanh_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

static constexpr uint32_t kAlign = 8;          // floats per 32B block
static constexpr uint32_t kMaxTileW = 512;
static constexpr uint64_t kSlack = 8 * 1024;

ge::graphStatus ConvChannelMinDoubleTanhTilingFunc(gert::TilingContext *context)
{
    auto xs = context->GetInputShape(0)->GetStorageShape();
    auto ws = context->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 4 || ws.GetDimNum() != 4 || xs.GetDim(1) != ws.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    uint32_t batch = xs.GetDim(0), cin = xs.GetDim(1), inH = xs.GetDim(2), inW = xs.GetDim(3);
    uint32_t cout = ws.GetDim(0), kH = ws.GetDim(2), kW = ws.GetDim(3);
    if (inH < kH || inW < kW) {
        return ge::GRAPH_FAILED;
    }
    // valid convolution, stride 1
    uint32_t outH = inH - kH + 1;
    uint32_t outW = inW - kW + 1;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t cores = plat.GetCoreNumAiv();

    // whole filter bank + bias stay resident in UB
    uint64_t filterBytes = ((uint64_t)cout * cin * kH * kW + kAlign) / kAlign * kAlign * sizeof(float);
    uint64_t biasBytes = (cout + kAlign - 1) / kAlign * kAlign * sizeof(float);
    if (filterBytes + biasBytes + kSlack >= ub) {
        return ge::GRAPH_FAILED;
    }
    uint64_t left = ub - filterBytes - biasBytes - kSlack;
    // per output column: 2 x (cin*kH*kW) shifted input slices (double buffered),
    // accumulator, running min, scratch, and 2 output buffers
    uint64_t perCol = (2ULL * cin * kH * kW + 5) * sizeof(float);
    uint64_t tileW = left / perCol / kAlign * kAlign;
    uint32_t outWAligned = (outW + kAlign - 1) / kAlign * kAlign;
    if (tileW > outWAligned) tileW = outWAligned;
    if (tileW > kMaxTileW) tileW = kMaxTileW;
    if (tileW == 0) {
        return ge::GRAPH_FAILED;
    }

    uint32_t tilesPerRow = (outW + tileW - 1) / tileW;
    uint32_t taskCount = batch * outH * tilesPerRow;
    if (cores > taskCount) cores = taskCount;
    if (cores == 0) cores = 1;

    ConvChannelMinDoubleTanhTilingData td;
    td.set_batch(batch);
    td.set_cin(cin);
    td.set_cout(cout);
    td.set_inH(inH);
    td.set_inW(inW);
    td.set_kH(kH);
    td.set_kW(kW);
    td.set_outH(outH);
    td.set_outW(outW);
    td.set_tileW(static_cast<uint32_t>(tileW));
    td.set_tilesPerRow(tilesPerRow);
    td.set_taskCount(taskCount);
    td.set_tasksPerCore(taskCount / cores);
    td.set_tasksRemain(taskCount % cores);

    context->SetBlockDim(cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}
