// Tiling for MeanAbsNormalize.
//   tiling key 0/1: reduced axis is the innermost one (rows)       fp32/fp16
//   tiling key 2/3: reduced axis has trailing dims (column slabs)   fp32/fp16
#include "mean_abs_normalize_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static constexpr uint32_t CHUNK_MAX = 8192;  // fp32 elements per UB chunk

ge::graphStatus MeanAbsNormalizeTilingFunc(gert::TilingContext *context)
{
    const gert::Shape &shape = context->GetInputShape(0)->GetStorageShape();
    const size_t rank = shape.GetDimNum();
    if (rank < 2) {
        return ge::GRAPH_FAILED;
    }
    int64_t axis = 1;
    if (const int64_t *a = context->GetAttrs()->GetAttrPointer<int64_t>(0); a != nullptr) {
        axis = *a < 0 ? *a + static_cast<int64_t>(rank) : *a;
    }
    if (axis < 0 || axis >= static_cast<int64_t>(rank)) {
        return ge::GRAPH_FAILED;
    }

    uint64_t outer = 1, inner = 1;
    for (int64_t i = 0; i < axis; ++i) {
        outer *= shape.GetDim(i);
    }
    for (size_t i = axis + 1; i < rank; ++i) {
        inner *= shape.GetDim(i);
    }
    const uint32_t reduceLen = static_cast<uint32_t>(shape.GetDim(axis));

    MeanAbsNormalizeTilingData t;
    t.set_outer(static_cast<uint32_t>(outer));
    t.set_reduceLen(reduceLen);
    t.set_inner(static_cast<uint32_t>(inner));

    uint32_t tasks;
    uint32_t chunk;
    if (inner == 1) {
        chunk = reduceLen < CHUNK_MAX ? (reduceLen + 15) / 16 * 16 : CHUNK_MAX;
        tasks = static_cast<uint32_t>(outer);
        t.set_slabsPerOuter(1);
    } else {
        chunk = inner < CHUNK_MAX / 2 ? (static_cast<uint32_t>(inner) + 15) / 16 * 16 : CHUNK_MAX / 2;
        const uint32_t slabs = static_cast<uint32_t>((inner + chunk - 1) / chunk);
        t.set_slabsPerOuter(slabs);
        tasks = static_cast<uint32_t>(outer) * slabs;
    }
    t.set_chunkLen(chunk);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    cores = cores == 0 ? 1 : cores;
    const uint32_t per = (tasks + cores - 1) / cores;
    t.set_taskCount(tasks);
    t.set_tasksPerCore(per);
    context->SetBlockDim(per == 0 ? 1 : (tasks + per - 1) / per);

    const bool isHalf = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16;
    context->SetTilingKey((inner == 1 ? 0 : 2) + (isHalf ? 1 : 0));

    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
