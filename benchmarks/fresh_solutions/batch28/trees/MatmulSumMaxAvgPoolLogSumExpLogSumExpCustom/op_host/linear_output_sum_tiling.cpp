#include "linear_output_sum_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t F32_BLOCK = 8;
constexpr uint32_t COL_CHUNK_MAX = 2048;      // floats per weight row slice
constexpr uint32_t ROW_BLOCK_MAX = 16;        // weight rows per DMA (2 bufs x 16 x 2048 x 4 = 256KB -> capped below)
constexpr uint32_t K_CHUNK_MAX = 8192;
constexpr uint64_t UB_MARGIN = 16 * 1024;

inline uint32_t RoundUp8(uint32_t v) { return (v + F32_BLOCK - 1) / F32_BLOCK * F32_BLOCK; }
inline uint32_t Min(uint32_t a, uint32_t b) { return a < b ? a : b; }
}  // namespace

ge::graphStatus LinearOutputSumTiling(gert::TilingContext *context)
{
    auto xd = context->GetInputShape(0);
    auto wd = context->GetInputShape(1);
    auto bd = context->GetInputShape(2);
    if (xd == nullptr || wd == nullptr || bd == nullptr) {
        return ge::GRAPH_FAILED;
    }
    const gert::Shape &xs = xd->GetStorageShape();
    const gert::Shape &ws = wd->GetStorageShape();
    if (xs.GetDimNum() != 2 || ws.GetDimNum() != 2 || xs.GetDim(1) != ws.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    if (bd->GetStorageShape().GetShapeSize() != ws.GetDim(0)) {
        return ge::GRAPH_FAILED;
    }
    uint32_t batch = xs.GetDim(0);
    uint32_t in = xs.GetDim(1);
    uint32_t out = ws.GetDim(0);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t cores = plat.GetCoreNumAiv();
    cores = cores == 0 ? 1 : cores;
    uint64_t usable = ub - UB_MARGIN;

    uint32_t inAlign = RoundUp8(in);
    // Phase 1: split the input-feature axis over all cores.
    uint32_t colsPerCore = RoundUp8((in + cores - 1) / cores);
    uint32_t colChunk = Min(colsPerCore, COL_CHUNK_MAX);
    // 2 x rowBlock x colChunk (input) + colChunk (accumulator) must fit
    uint32_t rowBlock = static_cast<uint32_t>((usable / sizeof(float) - colChunk) / (2ULL * colChunk));
    rowBlock = Min(rowBlock, ROW_BLOCK_MAX);
    rowBlock = Min(rowBlock, out);
    if (rowBlock == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t biasChunk = Min(RoundUp8(out), COL_CHUNK_MAX * 4);

    // Phase 2: split the batch.
    uint32_t used = Min(cores, batch == 0 ? 1 : batch);
    uint32_t rowsPerCore = batch / used;
    uint32_t rowsTail = batch % used;
    uint32_t resultCap = RoundUp8(rowsPerCore + (rowsTail ? 1 : 0));
    // wsum chunk + 2 x-chunks + product accumulator + reduce scratch
    uint64_t kBudget = usable / sizeof(float) - 2ULL * resultCap - 64;
    uint32_t kChunk = static_cast<uint32_t>(kBudget / 5) / F32_BLOCK * F32_BLOCK;
    kChunk = Min(kChunk, K_CHUNK_MAX);
    kChunk = Min(kChunk, inAlign);
    if (kChunk < F32_BLOCK) {
        return ge::GRAPH_FAILED;
    }

    LinearOutputSumTilingData t;
    t.set_batch(batch);
    t.set_inFeatures(in);
    t.set_outFeatures(out);
    t.set_inAlign(inAlign);
    t.set_colsPerCore(colsPerCore);
    t.set_colChunk(colChunk);
    t.set_rowBlock(rowBlock);
    t.set_biasChunk(biasChunk);
    t.set_rowsPerCore(rowsPerCore);
    t.set_rowsTail(rowsTail);
    t.set_kChunk(kChunk);
    t.set_resultCap(resultCap);

    // SyncAll requires every launched block to be resident: launch all cores.
    context->SetBlockDim(cores);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    // user workspace: column sums [inAlign] + bias total [8]
    size_t *wsz = context->GetWorkspaceSizes(1);
    wsz[0] = plat.GetLibApiWorkSpaceSize() + (static_cast<size_t>(inAlign) + F32_BLOCK) * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
