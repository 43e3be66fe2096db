#include "deconv_chan_min_height_sum_gelu_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t FLUSH_LEN = 256;               // results kept in UB before being written out
constexpr uint64_t UB_RESERVED = 16 * 1024;       // erf scratch, bias, output staging
constexpr uint32_t ALIGN_FLOATS = 8;              // 32 bytes

inline uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }
}

ge::graphStatus DeconvChanMinHeightSumGeluTilingFunc(gert::TilingContext *context)
{
    const gert::Shape &xShape = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &wShape = context->GetInputShape(1)->GetStorageShape();
    if (xShape.GetDimNum() != 4 || wShape.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    const int64_t stride = *attrs->GetAttrPointer<int64_t>(0);
    const int64_t pad = *attrs->GetAttrPointer<int64_t>(1);
    const int64_t outPad = *attrs->GetAttrPointer<int64_t>(2);
    if (stride <= 0 || pad < 0 || outPad < 0) {
        return ge::GRAPH_FAILED;
    }

    const uint32_t n = xShape.GetDim(0);
    const uint32_t cin = xShape.GetDim(1);
    const uint32_t h = xShape.GetDim(2);
    const uint32_t w = xShape.GetDim(3);
    // ConvTranspose weight layout is (Cin, Cout, kH, kW)
    const uint32_t cout = wShape.GetDim(1);
    const uint32_t kh = wShape.GetDim(2);
    const uint32_t kw = wShape.GetDim(3);
    if (wShape.GetDim(0) != cin) {
        return ge::GRAPH_FAILED;
    }
    const int64_t oh = (static_cast<int64_t>(h) - 1) * stride - 2 * pad + kh + outPad;
    const int64_t ow = (static_cast<int64_t>(w) - 1) * stride - 2 * pad + kw + outPad;
    if (oh <= 0 || ow <= 0) {
        return ge::GRAPH_FAILED;
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = platform.GetCoreNumAiv();

    // how many output channels' filters fit in UB together (all Cin taps for each)
    const uint64_t bytesPerCo = static_cast<uint64_t>(cin) * kh * kw * sizeof(float);
    const uint64_t biasBytes = AlignUp(cout, ALIGN_FLOATS) * sizeof(float);
    uint64_t budget = ubSize - UB_RESERVED - biasBytes;
    // (each input channel row of the chunk is padded to 32B in UB; leave one block of slack per row)
    budget -= static_cast<uint64_t>(cin) * 32;
    uint32_t coChunk = static_cast<uint32_t>(budget / bytesPerCo);
    if (coChunk == 0) {
        return ge::GRAPH_FAILED;
    }
    if (coChunk > cout) {
        coChunk = cout;
    }
    // DataCopyPad block length is limited to 16 bits of bytes
    while (coChunk > 1 && coChunk * kh * kw * sizeof(float) > 65535) {
        coChunk--;
    }

    const uint32_t totalColumns = n * static_cast<uint32_t>(ow);
    if (coreNum > totalColumns) {
        coreNum = totalColumns;
    }
    if (coreNum == 0) {
        coreNum = 1;
    }

    DeconvChanMinHeightSumGeluTilingData tiling;
    tiling.set_batch(n);
    tiling.set_inChannels(cin);
    tiling.set_outChannels(cout);
    tiling.set_inH(h);
    tiling.set_inW(w);
    tiling.set_kernelH(kh);
    tiling.set_kernelW(kw);
    tiling.set_stride(static_cast<uint32_t>(stride));
    tiling.set_pad(static_cast<uint32_t>(pad));
    tiling.set_outH(static_cast<uint32_t>(oh));
    tiling.set_outW(static_cast<uint32_t>(ow));
    tiling.set_totalColumns(totalColumns);
    tiling.set_columnsPerCore(totalColumns / coreNum);
    tiling.set_columnsTail(totalColumns % coreNum);
    tiling.set_coChunk(coChunk);
    tiling.set_flushLen(FLUSH_LEN);

    context->SetBlockDim(coreNum);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
