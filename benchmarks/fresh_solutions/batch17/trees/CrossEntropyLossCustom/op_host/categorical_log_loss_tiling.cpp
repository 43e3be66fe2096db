#include "categorical_log_loss_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include <algorithm>
#include <cstring>

namespace optiling {
namespace {
constexpr uint32_t UB_RESERVED = 8 * 1024;       // scratch for reduce work area and row-sum batch
constexpr uint32_t MAX_CHUNK = 8192;             // elements per chunk; 8192 fp32 -> 32 KiB
constexpr uint32_t LN_BATCH = 64;
constexpr uint32_t PARTIAL_STRIDE = 8;           // floats per core in the partial-sum workspace (one 32B block)
}

ge::graphStatus CategoricalLogLossTilingFunc(gert::TilingContext *context)
{
    CategoricalLogLossTilingData tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    const gert::StorageShape *logitShape = context->GetInputShape(0);
    const auto &shp = logitShape->GetStorageShape();
    if (shp.GetDimNum() != 2) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rows = static_cast<uint32_t>(shp.GetDim(0));
    uint32_t classes = static_cast<uint32_t>(shp.GetDim(1));
    if (rows == 0 || classes == 0) {
        return ge::GRAPH_FAILED;
    }

    // Chunk size: what fits in UB with a double-buffered input queue, one fp32 work copy
    // and the reduce scratch; keep it a multiple of 64 elements so every vector repeat is full.
    uint64_t budget = (ubSize > UB_RESERVED) ? (ubSize - UB_RESERVED) : ubSize / 2;
    uint32_t perElem = 2 * 4 + 4 + 4;   // 2 input buffers (worst case fp32) + fp32 work + exp tmp
    uint32_t chunk = static_cast<uint32_t>(budget / perElem);
    chunk = std::min(chunk, MAX_CHUNK);
    chunk = (chunk / 64) * 64;
    uint32_t classesAligned = (classes + 63) / 64 * 64;
    chunk = std::min(chunk, classesAligned);
    uint32_t chunkNum = (classes + chunk - 1) / chunk;

    uint32_t rowsPerCore = (rows + coreNum - 1) / coreNum;
    uint32_t usedCores = (rows + rowsPerCore - 1) / rowsPerCore;

    int64_t ignoreIndex = -100;
    uint32_t reduceMode = 1;
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    if (attrs != nullptr) {
        const int64_t *ign = attrs->GetAttrPointer<int64_t>(0);
        if (ign != nullptr) {
            ignoreIndex = *ign;
        }
        const char *red = attrs->GetAttrPointer<char>(1);
        if (red != nullptr && std::strcmp(red, "sum") == 0) {
            reduceMode = 0;
        }
    }

    tiling.set_batchRows(rows);
    tiling.set_classNum(classes);
    tiling.set_rowsPerCore(rowsPerCore);
    tiling.set_usedCores(usedCores);
    tiling.set_chunkLen(chunk);
    tiling.set_chunkNum(chunkNum);
    tiling.set_lnBatch(LN_BATCH);
    tiling.set_ignoreIndex(ignoreIndex);
    tiling.set_reduceMode(reduceMode);

    // chunkNum == 1 lets the kernel keep the whole row resident between the max and exp passes
    context->SetTilingKey(chunkNum == 1 ? 1 : 2);
    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    // workspace: library scratch + per-core partial (sum, validCount) pairs
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = platform.GetLibApiWorkSpaceSize() + usedCores * PARTIAL_STRIDE * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
