/**
 * Host tiling for Deconv2dSquareWindow.
 *
 * Work is split over output rows: one unit of work is the full width of one
 * output row (n, co, oh). The kernel accumulates a row in fp32, split into
 * `stride` phases so that each input pixel contributes to a contiguous run.
 */
#include "deconv2d_square_window_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t ALIGN_BYTES = 32;
constexpr uint32_t UB_RESERVE = 8 * 1024;

inline uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }
inline uint32_t CeilDiv(uint32_t v, uint32_t a) { return (v + a - 1) / a; }
} // namespace

ge::graphStatus Deconv2dSquareWindowTilingFunc(gert::TilingContext *context)
{
    const gert::StorageShape *xShape = context->GetInputShape(0);
    const gert::StorageShape *wShape = context->GetInputShape(1);
    if (xShape == nullptr || wShape == nullptr) {
        return ge::GRAPH_FAILED;
    }
    const gert::Shape &xs = xShape->GetStorageShape();
    const gert::Shape &ws = wShape->GetStorageShape();
    if (xs.GetDimNum() != 4 || ws.GetDimNum() != 4 || ws.GetDim(2) != ws.GetDim(3)) {
        return ge::GRAPH_FAILED;
    }

    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    int64_t stride = *attrs->GetAttrPointer<int64_t>(0);
    int64_t pad = *attrs->GetAttrPointer<int64_t>(1);
    int64_t outPad = *attrs->GetAttrPointer<int64_t>(2);
    int64_t groups = *attrs->GetAttrPointer<int64_t>(3);
    if (stride <= 0 || pad < 0 || outPad < 0 || groups <= 0 || outPad >= stride) {
        return ge::GRAPH_FAILED;
    }

    uint32_t n = xs.GetDim(0);
    uint32_t cin = xs.GetDim(1);
    uint32_t hin = xs.GetDim(2);
    uint32_t win = xs.GetDim(3);
    uint32_t k = ws.GetDim(2);
    uint32_t coutPerGroup = ws.GetDim(1);
    if (cin % groups != 0 || ws.GetDim(0) != cin) {
        return ge::GRAPH_FAILED;
    }
    uint32_t cout = coutPerGroup * groups;
    int64_t hout = (int64_t)(hin - 1) * stride - 2 * pad + k + outPad;
    int64_t wout = (int64_t)(win - 1) * stride - 2 * pad + k + outPad;
    if (hout <= 0 || wout <= 0) {
        return ge::GRAPH_FAILED;
    }

    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t elemSize = (dt == ge::DT_FLOAT16) ? 2 : 4;
    // Left zero padding inserted by the DMA is limited to one 32B block.
    int64_t maxShift = ((int64_t)k - 1 - pad) / stride + 1;
    if (maxShift > (int64_t)(ALIGN_BYTES / elemSize)) {
        return ge::GRAPH_FAILED;
    }

    uint32_t phaseLen = AlignUp(CeilDiv((uint32_t)wout, (uint32_t)stride) + 1, ALIGN_BYTES / sizeof(float));
    uint32_t inRowAlign = AlignUp(phaseLen, ALIGN_BYTES / elemSize);
    uint32_t outRowAlign = AlignUp((uint32_t)wout, ALIGN_BYTES / sizeof(float));

    // UB budget: 2x staged input row (T) + fp32 cast row + phases + gather offsets + result + 2x out row (T)
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint64_t need = 2ULL * inRowAlign * elemSize + phaseLen * 4ULL + (uint64_t)stride * phaseLen * 4ULL +
                    outRowAlign * 4ULL * 2 + 2ULL * outRowAlign * elemSize;
    if (need + UB_RESERVE > ubSize) {
        return ge::GRAPH_FAILED;
    }

    uint32_t coreNum = platform.GetCoreNumAiv();
    uint64_t totalRows = (uint64_t)n * cout * hout;
    uint32_t usedCores = totalRows < coreNum ? (uint32_t)totalRows : coreNum;
    if (usedCores == 0) {
        usedCores = 1;
    }

    Deconv2dSquareWindowTilingData tiling;
    tiling.set_batch(n);
    tiling.set_inChannels(cin);
    tiling.set_inH(hin);
    tiling.set_inW(win);
    tiling.set_outChannels(cout);
    tiling.set_outH((uint32_t)hout);
    tiling.set_outW((uint32_t)wout);
    tiling.set_kernel(k);
    tiling.set_stride((uint32_t)stride);
    tiling.set_pad((uint32_t)pad);
    tiling.set_cinPerGroup(cin / groups);
    tiling.set_coutPerGroup(coutPerGroup);
    tiling.set_phaseLen(phaseLen);
    tiling.set_inRowAlign(inRowAlign);
    tiling.set_outRowAlign(outRowAlign);
    tiling.set_hasBias(context->GetOptionalInputShape(2) != nullptr ? 1 : 0);
    tiling.set_rowsPerCore((uint32_t)(totalRows / usedCores));
    tiling.set_rowsTail((uint32_t)(totalRows % usedCores));

    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *ws0 = context->GetWorkspaceSizes(1);
    ws0[0] = platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
