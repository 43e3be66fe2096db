/**
 * Host tiling for VolumetricConvDirect.
 *
 * Work is distributed over output rows: one "row" is the W-line y[n, :, od, oh, :]
 * for a block of output channels. Every core gets a contiguous range of rows.
 */
#include "volumetric_conv_direct_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include <algorithm>

namespace optiling {
namespace {
constexpr uint32_t FP32_PER_BLOCK = 8;          // 32 bytes of fp32
constexpr uint64_t UB_RESERVED = 16 * 1024;     // keep some UB for the framework
constexpr uint32_t MAX_OC_BLOCK = 128;

inline uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

inline int64_t ConvOutLen(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d)
{
    return (in + 2 * p - d * (k - 1) - 1) / s + 1;
}
}  // namespace

ge::graphStatus VolumetricConvDirectTilingFunc(gert::TilingContext* context)
{
    const gert::Shape& xShape = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& wShape = context->GetInputShape(1)->GetStorageShape();
    if (xShape.GetDimNum() != 5 || wShape.GetDimNum() != 5) {
        return ge::GRAPH_FAILED;
    }
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    const int64_t stride = *attrs->GetAttrPointer<int64_t>(0);
    const int64_t padding = *attrs->GetAttrPointer<int64_t>(1);
    const int64_t dilation = *attrs->GetAttrPointer<int64_t>(2);
    const int64_t groups = *attrs->GetAttrPointer<int64_t>(3);

    const int64_t n = xShape.GetDim(0);
    const int64_t ci = xShape.GetDim(1);
    const int64_t di = xShape.GetDim(2);
    const int64_t hi = xShape.GetDim(3);
    const int64_t wi = xShape.GetDim(4);
    const int64_t co = wShape.GetDim(0);
    const int64_t k = wShape.GetDim(2);
    if (stride <= 0 || dilation <= 0 || padding < 0 || groups <= 0 ||
        ci % groups != 0 || co % groups != 0 || wShape.GetDim(1) != ci / groups ||
        wShape.GetDim(3) != k || wShape.GetDim(4) != k) {
        return ge::GRAPH_FAILED;
    }
    const int64_t dOut = ConvOutLen(di, k, stride, padding, dilation);
    const int64_t hOut = ConvOutLen(hi, k, stride, padding, dilation);
    const int64_t wOut = ConvOutLen(wi, k, stride, padding, dilation);
    if (dOut <= 0 || hOut <= 0 || wOut <= 0) {
        return ge::GRAPH_FAILED;
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const uint32_t coreNum = platform.GetCoreNumAiv();

    const uint32_t owAlign = AlignUp(static_cast<uint32_t>(wOut), FP32_PER_BLOCK * 2); // 32B for fp16 too
    const uint32_t iwAlign = AlignUp(static_cast<uint32_t>(wi), FP32_PER_BLOCK * 2); // also fits fp16
    const uint32_t taps = static_cast<uint32_t>(ci / groups * k * k * k);
    const uint32_t ocPerGroup = static_cast<uint32_t>(co / groups);

    // Fixed buffers: input row (x2 queue, raw + fp32), tap vector.
    uint64_t fixedBytes = 2ULL * iwAlign * sizeof(float) + iwAlign * sizeof(float) + owAlign * sizeof(float);
    // Per output channel: fp32 accumulator + output staging (x2) + weights of that channel + bias.
    uint64_t perOc = owAlign * sizeof(float) * 3ULL + AlignUp(taps, FP32_PER_BLOCK * 2) * sizeof(float) * 2ULL +
                     FP32_PER_BLOCK * sizeof(float);
    uint64_t budget = ubSize > UB_RESERVED + fixedBytes ? ubSize - UB_RESERVED - fixedBytes : 0;
    uint32_t ocBlock = static_cast<uint32_t>(budget / perOc);
    ocBlock = std::min<uint32_t>(ocBlock, std::min<uint32_t>(ocPerGroup, MAX_OC_BLOCK));
    if (ocBlock == 0) {
        return ge::GRAPH_FAILED;   // a single output line does not fit in UB
    }

    const uint32_t totalRows = static_cast<uint32_t>(n * dOut * hOut);
    const uint32_t usedCores = std::max<uint32_t>(1, std::min<uint32_t>(coreNum, totalRows));

    VolumetricConvDirectTilingData tiling;
    tiling.set_batch(n);
    tiling.set_inChannels(ci);
    tiling.set_inDepth(di);
    tiling.set_inHeight(hi);
    tiling.set_inWidth(wi);
    tiling.set_outChannels(co);
    tiling.set_outDepth(dOut);
    tiling.set_outHeight(hOut);
    tiling.set_outWidth(wOut);
    tiling.set_kernelSize(k);
    tiling.set_stride(stride);
    tiling.set_padding(padding);
    tiling.set_dilation(dilation);
    tiling.set_groups(groups);
    tiling.set_hasBias(context->GetOptionalInputShape(2) != nullptr ? 1 : 0);
    tiling.set_ocBlock(ocBlock);
    tiling.set_outWidthAlign(owAlign);
    tiling.set_inWidthAlign(iwAlign);
    tiling.set_totalRows(totalRows);
    tiling.set_rowsPerCore(totalRows / usedCores);
    tiling.set_rowsRemainder(totalRows % usedCores);

    context->SetBlockDim(usedCores);
    context->SetTilingKey(context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 1 : 0);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
