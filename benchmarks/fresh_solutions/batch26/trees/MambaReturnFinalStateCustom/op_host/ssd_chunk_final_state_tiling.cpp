#include "ssd_chunk_final_state_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t ALIGN_BYTES = 32;
constexpr uint32_t UB_RESERVE = 8 * 1024;

inline uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }
} // namespace

ge::graphStatus SsdChunkFinalStateTilingFunc(gert::TilingContext *context)
{
    // x: [B, L, H, P]   a: [B, L, H]   b: [B, L, H, N]   (optional) init: [B, H, P, N]
    const gert::StorageShape *xShape = context->GetInputShape(0);
    const gert::StorageShape *bShape = context->GetInputShape(2);
    if (xShape == nullptr || bShape == nullptr) {
        return ge::GRAPH_FAILED;
    }
    const gert::Shape &xs = xShape->GetStorageShape();
    const gert::Shape &bs = bShape->GetStorageShape();
    if (xs.GetDimNum() != 4 || bs.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }

    uint32_t batch = static_cast<uint32_t>(xs.GetDim(0));
    uint32_t seqLen = static_cast<uint32_t>(xs.GetDim(1));
    uint32_t heads = static_cast<uint32_t>(xs.GetDim(2));
    uint32_t headDim = static_cast<uint32_t>(xs.GetDim(3));
    uint32_t stateDim = static_cast<uint32_t>(bs.GetDim(3));

    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    uint32_t chunkLen = 64;
    if (attrs != nullptr && attrs->GetAttrPointer<int64_t>(0) != nullptr) {
        chunkLen = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    }
    if (chunkLen == 0 || seqLen % chunkLen != 0) {
        return ge::GRAPH_FAILED;
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = platform.GetCoreNumAiv();

    // UB footprint (fp32): x chunk, B chunk (both double buffered), A chunk,
    // decay weights, state accumulator and the transposed output staging.
    uint64_t need = 2ULL * AlignUp(chunkLen * headDim * 4, ALIGN_BYTES) +
                    2ULL * AlignUp(chunkLen * stateDim * 4, ALIGN_BYTES) +
                    2ULL * AlignUp(chunkLen * heads * 4, ALIGN_BYTES) +
                    AlignUp((chunkLen + 8) * 4, ALIGN_BYTES) +
                    2ULL * AlignUp(headDim * stateDim * 4, ALIGN_BYTES);
    if (need + UB_RESERVE > ubSize) {
        return ge::GRAPH_FAILED;
    }

    uint32_t totalPairs = batch * heads;
    uint32_t usedCores = totalPairs < coreNum ? totalPairs : coreNum;
    if (usedCores == 0) {
        usedCores = 1;
    }

    SsdChunkFinalStateTilingData tiling;
    tiling.set_batch(batch);
    tiling.set_seqLen(seqLen);
    tiling.set_numHeads(heads);
    tiling.set_headDim(headDim);
    tiling.set_stateDim(stateDim);
    tiling.set_chunkLen(chunkLen);
    tiling.set_numChunks(seqLen / chunkLen);
    tiling.set_totalPairs(totalPairs);
    tiling.set_pairsPerCore(totalPairs / usedCores);
    tiling.set_pairsRemain(totalPairs % usedCores);
    tiling.set_hasInitState(context->GetOptionalInputShape(3) != nullptr ? 1 : 0);

    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
