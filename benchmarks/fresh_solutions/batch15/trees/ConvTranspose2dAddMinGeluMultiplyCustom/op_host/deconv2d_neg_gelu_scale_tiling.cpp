/**
 * @file deconv2d_neg_gelu_scale_tiling.cpp
 * Host tiling: output rows (n, oh) are the unit of work and are split evenly
 * across vector cores. The UB budget decides how many input channels worth of
 * input rows can stay resident while all output channels are swept.
 */
#include "deconv2d_neg_gelu_scale_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t ALIGN_FLOATS = 8;
constexpr uint64_t UB_RESERVE = 8 * 1024;

inline uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }
}  // namespace

ge::graphStatus Deconv2dNegGeluScaleTilingFunc(gert::TilingContext* context)
{
    const gert::StorageShape* xShape = context->GetInputShape(0);
    const gert::StorageShape* wShape = context->GetInputShape(1);
    if (xShape == nullptr || wShape == nullptr) {
        return ge::GRAPH_FAILED;
    }
    const auto& xs = xShape->GetStorageShape();
    const auto& ws = wShape->GetStorageShape();
    if (xs.GetDimNum() != 4 || ws.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }

    const auto* attrs = context->GetAttrs();
    const int64_t* strideAttr = attrs->GetAttrPointer<int64_t>(0);
    const int64_t* padAttr = attrs->GetAttrPointer<int64_t>(1);
    const float* shiftAttr = attrs->GetAttrPointer<float>(2);
    const float* scaleAttr = attrs->GetAttrPointer<float>(3);

    uint32_t n = static_cast<uint32_t>(xs.GetDim(0));
    uint32_t cin = static_cast<uint32_t>(xs.GetDim(1));
    uint32_t h = static_cast<uint32_t>(xs.GetDim(2));
    uint32_t w = static_cast<uint32_t>(xs.GetDim(3));
    uint32_t cout = static_cast<uint32_t>(ws.GetDim(1));
    uint32_t kh = static_cast<uint32_t>(ws.GetDim(2));
    uint32_t kw = static_cast<uint32_t>(ws.GetDim(3));
    uint32_t stride = strideAttr ? static_cast<uint32_t>(*strideAttr) : 1U;
    uint32_t pad = padAttr ? static_cast<uint32_t>(*padAttr) : 0U;
    if (stride == 0 || static_cast<uint32_t>(ws.GetDim(0)) != cin) {
        return ge::GRAPH_FAILED;
    }
    int64_t oh = static_cast<int64_t>(h - 1) * stride - 2 * pad + kh;
    int64_t ow = static_cast<int64_t>(w - 1) * stride - 2 * pad + kw;
    if (oh <= 0 || ow <= 0) {
        return ge::GRAPH_FAILED;
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = platform.GetCoreNumAiv();
    if (coreNum == 0) {
        coreNum = 1;
    }

    uint32_t inWAlign = AlignUp(w, ALIGN_FLOATS);
    uint32_t outWAlign = AlignUp(static_cast<uint32_t>(ow), ALIGN_FLOATS);
    uint32_t khPerRow = (kh + stride - 1) / stride;          // input rows touching one output row
    uint32_t kkAlign = AlignUp(kh * kw, ALIGN_FLOATS);

    // fixed buffers: accumulators (kw lanes + zero slot), gather scratch,
    // offset table, output row (x2 for double buffering)
    uint64_t fixedBytes = (static_cast<uint64_t>(kw) * inWAlign + ALIGN_FLOATS) * sizeof(float)
                        + static_cast<uint64_t>(outWAlign) * sizeof(float) * 3
                        + static_cast<uint64_t>(kw) * outWAlign * sizeof(uint32_t)
                        + static_cast<uint64_t>(outWAlign) * sizeof(float) * 2;
    uint64_t perChannel = static_cast<uint64_t>(khPerRow) * inWAlign * sizeof(float)
                        + static_cast<uint64_t>(kkAlign) * sizeof(float);
    uint64_t budget = ubSize > fixedBytes + UB_RESERVE ? ubSize - fixedBytes - UB_RESERVE : 0;
    uint32_t ciChunk = static_cast<uint32_t>(budget / perChannel);
    if (ciChunk == 0) {
        return ge::GRAPH_FAILED;
    }
    if (ciChunk > cin) {
        ciChunk = cin;
    }

    uint32_t totalRows = n * static_cast<uint32_t>(oh);
    uint32_t usedCores = totalRows < coreNum ? totalRows : coreNum;
    uint32_t rowsPerCore = (totalRows + usedCores - 1) / usedCores;
    usedCores = (totalRows + rowsPerCore - 1) / rowsPerCore;

    Deconv2dNegGeluScaleTilingData tiling;
    tiling.set_batch(n);
    tiling.set_inChannels(cin);
    tiling.set_outChannels(cout);
    tiling.set_inH(h);
    tiling.set_inW(w);
    tiling.set_kernelH(kh);
    tiling.set_kernelW(kw);
    tiling.set_stride(stride);
    tiling.set_pad(pad);
    tiling.set_outH(static_cast<uint32_t>(oh));
    tiling.set_outW(static_cast<uint32_t>(ow));
    tiling.set_inWAlign(inWAlign);
    tiling.set_outWAlign(outWAlign);
    tiling.set_ciChunk(ciChunk);
    tiling.set_totalRows(totalRows);
    tiling.set_rowsPerCore(rowsPerCore);
    tiling.set_shift(shiftAttr ? *shiftAttr : 0.0f);
    tiling.set_scale(scaleAttr ? *scaleAttr : 1.0f);

    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* ws0 = context->GetWorkspaceSizes(1);
    ws0[0] = platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
