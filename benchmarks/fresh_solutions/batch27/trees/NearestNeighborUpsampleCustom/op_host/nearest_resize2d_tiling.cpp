/**
 * @file nearest_resize2d_tiling.cpp
 * @brief Host tiling for NearestResize2d.
 *
 * Work unit = one output row segment (plane, oh, column tile).  Output rows that map to the
 * same input row are emitted together from a single staged input row; repCap bounds how many
 * are produced per Gather so the UB footprint stays fixed.
 */
#include <algorithm>
#include <cmath>
#include "nearest_resize2d_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint64_t UB_BUDGET = 160 * 1024;
constexpr uint32_t MAX_OW_TILE = 1024;
constexpr uint32_t MAX_REP = 8;

inline uint64_t AlignUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

// same rule as the kernel (and as PyTorch's "nearest" mode)
inline uint32_t SrcIndex(uint32_t dst, uint32_t inSize, uint32_t outSize, float inv)
{
    if (outSize == inSize) {
        return dst;
    }
    if (outSize == 2 * inSize) {
        return dst >> 1;
    }
    const uint32_t s = static_cast<uint32_t>(std::floor(static_cast<float>(dst) * inv));
    return std::min(s, inSize - 1);
}

uint64_t UbBytes(uint64_t inBufLen, uint64_t repCap, uint64_t tileAligned, uint64_t typeSize)
{
    return 2 * inBufLen * typeSize + 2 * repCap * tileAligned * typeSize + repCap * tileAligned * 4;
}
} // namespace

ge::graphStatus NearestResize2dTilingFunc(gert::TilingContext* context)
{
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& ys = context->GetOutputShape(0)->GetStorageShape();
    const size_t rank = xs.GetDimNum();
    if (rank < 2 || ys.GetDimNum() != rank) {
        return ge::GRAPH_FAILED;
    }
    uint64_t planes = 1;
    for (size_t i = 0; i + 2 < rank; ++i) {
        planes *= static_cast<uint64_t>(xs.GetDim(i));
    }
    const uint32_t inH = static_cast<uint32_t>(xs.GetDim(rank - 2));
    const uint32_t inW = static_cast<uint32_t>(xs.GetDim(rank - 1));
    const uint32_t outH = static_cast<uint32_t>(ys.GetDim(rank - 2));
    const uint32_t outW = static_cast<uint32_t>(ys.GetDim(rank - 1));
    if (inH == 0 || inW == 0 || outH == 0 || outW == 0 || planes == 0) {
        return ge::GRAPH_FAILED;
    }

    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    const float* scaleH = attrs->GetAttrPointer<float>(0);
    const float* scaleW = attrs->GetAttrPointer<float>(1);
    const float invH = (scaleH != nullptr && *scaleH > 0.0f) ?
        static_cast<float>(1.0 / static_cast<double>(*scaleH)) : static_cast<float>(inH) / outH;
    const float invW = (scaleW != nullptr && *scaleW > 0.0f) ?
        static_cast<float>(1.0 / static_cast<double>(*scaleW)) : static_cast<float>(inW) / outW;

    const auto dtype = context->GetInputDesc(0)->GetDataType();
    const uint64_t typeSize = (dtype == ge::DT_FLOAT16 || dtype == ge::DT_BF16) ? 2 : 4;
    const uint64_t elemsPerBlock = 32 / typeSize;

    // longest run of consecutive output rows reading the same input row
    uint32_t maxRun = 1;
    uint32_t run = 1;
    for (uint32_t oh = 1; oh < outH; ++oh) {
        run = (SrcIndex(oh, inH, outH, invH) == SrcIndex(oh - 1, inH, outH, invH)) ? run + 1 : 1;
        maxRun = std::max(maxRun, run);
    }
    uint64_t repCap = std::min<uint32_t>(maxRun, MAX_REP);
    uint64_t owTile = std::min<uint64_t>(outW, MAX_OW_TILE);

    auto spanFor = [&](uint64_t tile) {
        uint64_t span = 1;
        for (uint64_t ow0 = 0; ow0 < outW; ow0 += tile) {
            const uint64_t last = std::min<uint64_t>(ow0 + tile, outW) - 1;
            span = std::max<uint64_t>(span, SrcIndex(last, inW, outW, invW) - SrcIndex(ow0, inW, outW, invW) + 1);
        }
        return span;
    };
    uint64_t tileAligned = AlignUp(owTile, elemsPerBlock);
    uint64_t inBufLen = std::max<uint64_t>(AlignUp(spanFor(owTile), elemsPerBlock), repCap * tileAligned);
    while (UbBytes(inBufLen, repCap, tileAligned, typeSize) > UB_BUDGET) {
        if (repCap > 1) {
            repCap = (repCap + 1) / 2;
        } else if (owTile > elemsPerBlock) {
            owTile = std::max<uint64_t>(elemsPerBlock, owTile / 2);
        } else {
            return ge::GRAPH_FAILED;
        }
        tileAligned = AlignUp(owTile, elemsPerBlock);
        inBufLen = std::max<uint64_t>(AlignUp(spanFor(owTile), elemsPerBlock), repCap * tileAligned);
    }
    const uint64_t owTileNum = (outW + owTile - 1) / owTile;
    const uint64_t totalRows = planes * outH;
    const uint64_t totalUnits = totalRows * owTileNum;
    if (totalUnits > 0xFFFFFFFFULL) {
        return ge::GRAPH_FAILED;
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t coreNum = std::max<uint64_t>(1, platform.GetCoreNumAiv());
    coreNum = std::min<uint64_t>(coreNum, totalUnits);

    NearestResize2dTilingData td;
    td.set_planes(static_cast<uint32_t>(planes));
    td.set_inH(inH);
    td.set_inW(inW);
    td.set_outH(outH);
    td.set_outW(outW);
    td.set_invScaleH(invH);
    td.set_invScaleW(invW);
    td.set_owTile(static_cast<uint32_t>(owTile));
    td.set_owTileAligned(static_cast<uint32_t>(tileAligned));
    td.set_owTileNum(static_cast<uint32_t>(owTileNum));
    td.set_repCap(static_cast<uint32_t>(repCap));
    td.set_inBufLen(static_cast<uint32_t>(inBufLen));
    td.set_totalRows(static_cast<uint32_t>(totalRows));
    td.set_unitsPerCore(static_cast<uint32_t>(totalUnits / coreNum));
    td.set_unitsRemainder(static_cast<uint32_t>(totalUnits % coreNum));
    td.set_reserved(0);

    context->SetBlockDim(static_cast<uint32_t>(coreNum));
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
