/**
 * @file squeeze_expand_relu2d_tiling.cpp
 * @brief Host tiling for SqueezeExpandRelu2d.
 *
 * A work unit is one image x one band of output rows.  The owning core first computes the
 * squeezed activations for the band plus one halo row above and below into its private
 * scratch area of the workspace, then evaluates both expand branches for the band from it.
 * No cross-core synchronisation is needed; the halo recomputation costs 2/bandRows of the
 * (cheap) squeeze stage.
 */
#include <algorithm>
#include "squeeze_expand_relu2d_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint64_t UB_BUDGET = 176 * 1024;
constexpr uint64_t MAX_BAND = 16;
constexpr uint64_t MAX_OW_TILE = 256;
constexpr uint64_t MAX_SQ_TILE = 512;
constexpr uint64_t SQ_WEIGHT_BYTES = 16 * 1024;

inline uint64_t Align8(uint64_t v) { return (v + 7) / 8 * 8; }
inline uint64_t CeilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

uint64_t SqueezeBytes(uint64_t s, uint64_t ciChunkA, uint64_t sqTile)
{
    // weights chunk + bias + accumulator + double-buffered x rows
    return 4 * (s * ciChunkA + Align8(s) + s * sqTile + 2 * sqTile);
}

uint64_t ExpandBytes(uint64_t s, uint64_t ocBlock, uint64_t owTile)
{
    const uint64_t rowCap = Align8(owTile + 2) + 8;
    uint64_t e = Align8(ocBlock * s) + Align8(ocBlock * s * 9);   // 1x1 and 3x3 weights
    e += 2 * Align8(ocBlock);                                    // biases
    e += ocBlock * owTile;                                       // accumulator
    e += 2 * ocBlock * owTile;                                   // output queue
    e += 2 * rowCap + 2 * owTile;                                // rows, tap, offsets
    return 4 * e;
}
} // namespace

ge::graphStatus SqueezeExpandRelu2dTilingFunc(gert::TilingContext* context)
{
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& sqw = context->GetInputShape(1)->GetStorageShape();
    const gert::Shape& e1w = context->GetInputShape(3)->GetStorageShape();
    const gert::Shape& e3w = context->GetInputShape(5)->GetStorageShape();
    if (xs.GetDimNum() != 4 || sqw.GetDimNum() < 2 || e1w.GetDimNum() < 2 || e3w.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    const uint64_t n = xs.GetDim(0), c = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    const uint64_t s = sqw.GetDim(0);
    const uint64_t e1 = e1w.GetDim(0);
    const uint64_t e3 = e3w.GetDim(0);
    if (static_cast<uint64_t>(sqw.GetDim(1)) != c || static_cast<uint64_t>(e1w.GetDim(1)) != s ||
        static_cast<uint64_t>(e3w.GetDim(1)) != s || e3w.GetDim(2) != 3 || e3w.GetDim(3) != 3 ||
        n == 0 || h == 0 || w == 0 || s == 0 || e1 + e3 == 0) {
        return ge::GRAPH_FAILED;
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint64_t coreNum = std::max<uint64_t>(1, platform.GetCoreNumAiv());

    // band height: at most MAX_BAND rows, but small enough to give every core work
    uint64_t band = std::min<uint64_t>(h, MAX_BAND);
    while (band > 2 && n * CeilDiv(h, band) < coreNum) {
        band = (band + 1) / 2;
    }
    const uint64_t bandNum = CeilDiv(h, band);
    const uint64_t totalUnits = n * bandNum;
    const uint64_t usedCores = std::min<uint64_t>(coreNum, totalUnits);

    // squeeze stage sizes
    uint64_t ciChunk = std::max<uint64_t>(1, std::min<uint64_t>(c, SQ_WEIGHT_BYTES / (4 * s)));
    uint64_t sqTile = std::min<uint64_t>(Align8(w), MAX_SQ_TILE);
    while (sqTile > 8 && 4 * s * sqTile > 32 * 1024) {
        sqTile = Align8(sqTile / 2);
    }
    const uint64_t sqBytes = SqueezeBytes(s, Align8(ciChunk), sqTile);

    // expand stage sizes
    const uint64_t outC = e1 + e3;
    uint64_t owTile = std::min<uint64_t>(Align8(w), MAX_OW_TILE);
    uint64_t ocBlock = std::min<uint64_t>(outC, 64);
    while (sqBytes + ExpandBytes(s, ocBlock, owTile) > UB_BUDGET) {
        if (ocBlock > 8) {
            ocBlock = (ocBlock + 1) / 2;
        } else if (owTile > 32) {
            owTile = Align8(owTile / 2);
        } else if (ocBlock > 1) {
            ocBlock = (ocBlock + 1) / 2;
        } else if (owTile > 8) {
            owTile = Align8(owTile / 2);
        } else {
            return ge::GRAPH_FAILED;
        }
    }
    const uint64_t ocBlockNum = CeilDiv(outC, ocBlock);
    ocBlock = CeilDiv(outC, ocBlockNum);

    const uint64_t scratchPerCore = Align8(s * (band + 2) * w);

    SqueezeExpandRelu2dTilingData td;
    td.set_batch(n);
    td.set_inC(c);
    td.set_height(h);
    td.set_width(w);
    td.set_sqC(s);
    td.set_e1C(e1);
    td.set_e3C(e3);
    td.set_bandRows(band);
    td.set_bandNum(bandNum);
    td.set_unitsPerCore(totalUnits / usedCores);
    td.set_unitsRemainder(totalUnits % usedCores);
    td.set_sqTile(sqTile);
    td.set_ciChunk(ciChunk);
    td.set_ciChunkAligned(Align8(ciChunk));
    td.set_ocBlock(ocBlock);
    td.set_ocBlockNum(ocBlockNum);
    td.set_owTile(owTile);
    td.set_owTileNum(CeilDiv(w, owTile));
    td.set_rowCap(Align8(owTile + 2) + 8);
    td.set_scratchPerCore(scratchPerCore);

    context->SetBlockDim(static_cast<uint32_t>(usedCores));
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = platform.GetLibApiWorkSpaceSize() + usedCores * scratchPerCore * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
