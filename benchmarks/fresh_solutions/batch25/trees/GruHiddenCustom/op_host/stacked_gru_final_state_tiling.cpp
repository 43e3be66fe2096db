#include "stacked_gru_final_state_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint64_t UB_RESERVED = 8 * 1024;
constexpr uint32_t MAX_ROWS_PER_TILE = 64;
}

ge::graphStatus StackedGruFinalStateTiling(gert::TilingContext *context)
{
    auto xShape = context->GetInputShape(0)->GetStorageShape();   // (T, B, I)
    auto hShape = context->GetInputShape(1)->GetStorageShape();   // (L, B, H)
    if (xShape.GetDimNum() != 3 || hShape.GetDimNum() != 3) {
        return ge::GRAPH_FAILED;
    }
    uint32_t seqLen = static_cast<uint32_t>(xShape.GetDim(0));
    uint32_t batch = static_cast<uint32_t>(xShape.GetDim(1));
    uint32_t inputSize = static_cast<uint32_t>(xShape.GetDim(2));
    uint32_t numLayers = static_cast<uint32_t>(hShape.GetDim(0));
    uint32_t hidden = static_cast<uint32_t>(hShape.GetDim(2));
    if (hShape.GetDim(1) != batch || hidden == 0 || numLayers == 0) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t aivNum = plat.GetCoreNumAiv();

    // Fixed per-core buffers (fp32): x/h input vector, hidden state, two gate vectors,
    // two bias vectors and a scratch vector of length H.
    uint32_t maxIn = inputSize > hidden ? inputSize : hidden;
    uint64_t align = 8;
    auto up = [align](uint64_t v) { return (v + align - 1) / align * align; };
    uint64_t fixedElems = up(maxIn) + up(hidden) * 3 + up(3 * hidden) * 4;
    uint64_t fixedBytes = fixedElems * sizeof(float) + UB_RESERVED;
    if (fixedBytes >= ubSize) {
        return ge::GRAPH_FAILED;
    }
    // weight tile is double buffered
    uint64_t rowBytes = up(3 * hidden) * sizeof(float);
    uint32_t rows = static_cast<uint32_t>((ubSize - fixedBytes) / (2 * rowBytes));
    if (rows == 0) {
        return ge::GRAPH_FAILED;
    }
    if (rows > MAX_ROWS_PER_TILE) {
        rows = MAX_ROWS_PER_TILE;
    }

    // The recurrence of each batch row is independent, so rows are spread over vector cores.
    uint32_t usedCores = batch < aivNum ? batch : aivNum;
    if (usedCores == 0) {
        usedCores = 1;
    }

    StackedGruFinalStateTilingData tiling;
    tiling.set_seqLen(seqLen);
    tiling.set_batch(batch);
    tiling.set_inputSize(inputSize);
    tiling.set_hiddenSize(hidden);
    tiling.set_numLayers(numLayers);
    tiling.set_rowsPerTile(rows);
    tiling.set_usedCores(usedCores);
    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    // workspace: the hidden sequence of the layer being computed, (B, T, H) fp32
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize() +
            static_cast<size_t>(batch) * seqLen * hidden * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
