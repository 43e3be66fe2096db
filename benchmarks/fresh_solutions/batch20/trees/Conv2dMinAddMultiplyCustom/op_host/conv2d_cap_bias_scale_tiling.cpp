/*
 * Conv2dCapBiasScale tiling.
 *
 * work unit   : (image n, tile of output channels, output row oh)
 * distribution: round-robin over AIV cores (unit = blockIdx + i * coreNum)
 * UB          : K staged input rows (double buffered) + ocTile fp32 row accumulators
 */
#include "conv2d_cap_bias_scale_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus Conv2dCapBiasScaleTilingFunc(gert::TilingContext *context)
{
    auto xShape = context->GetInputShape(0)->GetStorageShape();
    auto wShape = context->GetInputShape(1)->GetStorageShape();
    if (xShape.GetDimNum() != 4 || wShape.GetDimNum() != 4 || xShape.GetDim(1) != wShape.GetDim(1) ||
        wShape.GetDim(2) != wShape.GetDim(3)) {
        return ge::GRAPH_FAILED;
    }
    auto attrs = context->GetAttrs();
    int64_t pad = *attrs->GetAttrPointer<int64_t>(0);
    float cap = *attrs->GetAttrPointer<float>(1);
    float scale = *attrs->GetAttrPointer<float>(2);

    uint32_t n = xShape.GetDim(0), c = xShape.GetDim(1), h = xShape.GetDim(2), w = xShape.GetDim(3);
    uint32_t oc = wShape.GetDim(0), k = wShape.GetDim(2);
    int64_t oh = (int64_t)h + 2 * pad - k + 1;
    int64_t ow = (int64_t)w + 2 * pad - k + 1;
    uint32_t dsize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    if (oh <= 0 || ow <= 0 || pad < 0 || pad > (int64_t)(32 / dsize) || k > 16) {
        return ge::GRAPH_FAILED;
    }

    uint32_t rowStride = ((uint32_t)ow + 15) / 16 * 16;
    auto ascend = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize;
    ascend.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint64_t fixedBytes = 2ULL * k * rowStride * dsize      // staged taps, 2 slots
                          + (uint64_t)k * rowStride * 4      // fp32 widened taps
                          + 2ULL * rowStride * dsize         // output queue
                          + rowStride * 4ULL                 // epilogue scratch
                          + 4096;
    if (fixedBytes + rowStride * 4ULL > ubSize) {
        return ge::GRAPH_FAILED;
    }
    uint32_t ocTile = (uint32_t)((ubSize - fixedBytes) / (rowStride * 4ULL));
    if (ocTile > 64) {
        ocTile = 64;
    }
    if (ocTile > oc) {
        ocTile = oc;
    }
    uint32_t ocTiles = (oc + ocTile - 1) / ocTile;
    uint64_t units = (uint64_t)n * ocTiles * oh;
    uint32_t coreNum = ascend.GetCoreNumAiv();
    if (units < coreNum) {
        coreNum = (uint32_t)units;
    }

    Conv2dCapBiasScaleTilingData tiling;
    tiling.set_batch(n);
    tiling.set_inC(c);
    tiling.set_inH(h);
    tiling.set_inW(w);
    tiling.set_outC(oc);
    tiling.set_outH((uint32_t)oh);
    tiling.set_outW((uint32_t)ow);
    tiling.set_ksize(k);
    tiling.set_pad((uint32_t)pad);
    tiling.set_rowStride(rowStride);
    tiling.set_ocTile(ocTile);
    tiling.set_ocTiles(ocTiles);
    tiling.set_totalUnits((uint32_t)units);
    tiling.set_coreNum(coreNum);
    tiling.set_cap(cap);
    tiling.set_scale(scale);

    context->SetBlockDim(coreNum);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = ascend.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
