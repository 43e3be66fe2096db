#include "selective_scan_final_state_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t ALIGN_FLOATS = 8;   // 32 bytes of fp32
constexpr uint32_t MAX_STEPS_PER_TILE = 128;

inline uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }
}

// Inputs: x (b, L, h, p), a (b, L, h), bmat (b, L, h, n)  -> out (b, h, p, n)
ge::graphStatus SelectiveScanFinalStateTiling(gert::TilingContext *context)
{
    const gert::Shape &xShape = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &aShape = context->GetInputShape(1)->GetStorageShape();
    const gert::Shape &bShape = context->GetInputShape(2)->GetStorageShape();
    if (xShape.GetDimNum() != 4 || aShape.GetDimNum() != 3 || bShape.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    uint32_t batch = static_cast<uint32_t>(xShape.GetDim(0));
    uint32_t seqLen = static_cast<uint32_t>(xShape.GetDim(1));
    uint32_t heads = static_cast<uint32_t>(xShape.GetDim(2));
    uint32_t headDim = static_cast<uint32_t>(xShape.GetDim(3));
    uint32_t stateDim = static_cast<uint32_t>(bShape.GetDim(3));
    if (aShape.GetDim(0) != batch || aShape.GetDim(1) != seqLen || aShape.GetDim(2) != heads ||
        bShape.GetDim(0) != batch || bShape.GetDim(1) != seqLen || bShape.GetDim(2) != heads) {
        return ge::GRAPH_FAILED;
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = platform.GetCoreNumAiv();

    // UB budget: persistent state (n rows of padded p) + output staging (p*n),
    // per step: one padded x row, one padded B row, a row of A for all heads, one weight.
    uint32_t pPad = AlignUp(headDim, ALIGN_FLOATS);
    uint32_t nPad = AlignUp(stateDim, ALIGN_FLOATS);
    uint64_t fixedBytes = (static_cast<uint64_t>(stateDim) * pPad + AlignUp(headDim * stateDim, ALIGN_FLOATS)) * 4;
    uint64_t perStep = (static_cast<uint64_t>(pPad) + nPad + heads + 1) * 4;
    uint64_t avail = ubSize > fixedBytes + 1024 ? ubSize - fixedBytes - 1024 : 0;
    uint32_t steps = static_cast<uint32_t>(avail / perStep);
    steps = steps > MAX_STEPS_PER_TILE ? MAX_STEPS_PER_TILE : steps;
    steps = steps / ALIGN_FLOATS * ALIGN_FLOATS;
    if (steps == 0) {
        return ge::GRAPH_FAILED;
    }

    uint32_t pairs = batch * heads;
    uint32_t usedCores = pairs < coreNum ? pairs : coreNum;
    if (usedCores == 0) {
        usedCores = 1;
    }

    SelectiveScanFinalStateTilingData tiling;
    tiling.set_batch(batch);
    tiling.set_seqLen(seqLen);
    tiling.set_numHeads(heads);
    tiling.set_headDim(headDim);
    tiling.set_stateDim(stateDim);
    tiling.set_stepsPerTile(steps);
    tiling.set_pairsPerCore(pairs / usedCores);
    tiling.set_pairsTail(pairs % usedCores);

    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
