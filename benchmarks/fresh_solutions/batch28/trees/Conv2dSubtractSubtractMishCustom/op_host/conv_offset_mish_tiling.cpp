#include "conv_offset_mish_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t FLOAT_ALIGN = 8;             // 32 bytes of fp32
constexpr uint64_t UB_RESERVED = 16 * 1024;     // kept free for the framework
constexpr uint32_t MAX_WEIGHT_IN_UB = 12 * 1024; // floats (48 KB)
constexpr uint32_t MAX_COL_TILE = 1024;

inline uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }
}  // namespace

ge::graphStatus ConvOffsetMishTilingFunc(gert::TilingContext *context)
{
    const gert::StorageShape *xShape = context->GetInputShape(0);
    const gert::StorageShape *wShape = context->GetInputShape(1);
    if (xShape == nullptr || wShape == nullptr) {
        return ge::GRAPH_FAILED;
    }
    const gert::Shape &xs = xShape->GetStorageShape();
    const gert::Shape &ws = wShape->GetStorageShape();
    if (xs.GetDimNum() != 4 || ws.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = static_cast<uint32_t>(xs.GetDim(0));
    uint32_t ci = static_cast<uint32_t>(xs.GetDim(1));
    uint32_t h = static_cast<uint32_t>(xs.GetDim(2));
    uint32_t w = static_cast<uint32_t>(xs.GetDim(3));
    uint32_t co = static_cast<uint32_t>(ws.GetDim(0));
    uint32_t kh = static_cast<uint32_t>(ws.GetDim(2));
    uint32_t kw = static_cast<uint32_t>(ws.GetDim(3));
    if (static_cast<uint32_t>(ws.GetDim(1)) != ci || kh > h || kw > w || co == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t oh = h - kh + 1;
    uint32_t ow = w - kw + 1;

    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    float offA = 0.0f;
    float offB = 0.0f;
    if (attrs != nullptr) {
        const float *a = attrs->GetFloat(0);
        const float *b = attrs->GetFloat(1);
        offA = (a == nullptr) ? 0.0f : *a;
        offB = (b == nullptr) ? 0.0f : *b;
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = platform.GetCoreNumAiv();
    if (coreNum == 0) {
        coreNum = 1;
    }

    uint32_t weightCount = co * ci * kh * kw;
    uint32_t weightInUb = weightCount <= MAX_WEIGHT_IN_UB ? 1U : 0U;
    uint64_t budget = ubSize > UB_RESERVED ? ubSize - UB_RESERVED : ubSize / 2;
    if (weightInUb) {
        budget -= AlignUp(weightCount, FLOAT_ALIGN) * sizeof(float);
    }
    budget -= AlignUp(co, FLOAT_ALIGN) * sizeof(float);  // bias

    // acc[co][T] + 2 x input row + 2 x output row + 2 temporaries
    uint64_t perCol = static_cast<uint64_t>(co + 6) * sizeof(float);
    uint32_t colTile = static_cast<uint32_t>(budget / perCol);
    colTile = colTile / FLOAT_ALIGN * FLOAT_ALIGN;
    if (colTile > MAX_COL_TILE) {
        colTile = MAX_COL_TILE;
    }
    if (colTile < FLOAT_ALIGN) {
        return ge::GRAPH_FAILED;
    }
    if (colTile > AlignUp(ow, FLOAT_ALIGN)) {
        colTile = ow;
    }

    uint32_t totalRows = n * oh;
    uint32_t blockDim = totalRows < coreNum ? totalRows : coreNum;
    if (blockDim == 0) {
        blockDim = 1;
    }

    ConvOffsetMishTilingData tiling;
    tiling.set_batch(n);
    tiling.set_inChannels(ci);
    tiling.set_inHeight(h);
    tiling.set_inWidth(w);
    tiling.set_outChannels(co);
    tiling.set_kernelH(kh);
    tiling.set_kernelW(kw);
    tiling.set_outHeight(oh);
    tiling.set_outWidth(ow);
    tiling.set_colTile(colTile);
    tiling.set_colTileAlign(AlignUp(colTile, FLOAT_ALIGN));
    tiling.set_totalRows(totalRows);
    tiling.set_rowsPerCore(totalRows / blockDim);
    tiling.set_rowsTail(totalRows % blockDim);
    tiling.set_weightCount(weightCount);
    tiling.set_weightInUb(weightInUb);
    tiling.set_offsetA(offA);
    tiling.set_offsetB(offB);

    context->SetBlockDim(blockDim);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(),
                        context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *ws0 = context->GetWorkspaceSizes(1);
    ws0[0] = platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
