#include "cosine_dissimilarity_mean_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus CosineDissimilarityMeanTiling(gert::TilingContext *context)
{
    const auto &shape = context->GetInputShape(0)->GetStorageShape();
    const uint32_t rowLen = static_cast<uint32_t>(shape.GetDim(shape.GetDimNum() - 1));
    const uint32_t numRows = static_cast<uint32_t>(shape.GetShapeSize() / rowLen);

    float eps = 1e-8f;
    if (const float *e = context->GetAttrs()->GetAttrPointer<float>(0); e != nullptr) {
        eps = *e;
    }

    const bool isHalf = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16;
    // 2 inputs x 2 buffers in T + 2 float copies + 3 float accumulators + 1 float temp
    // stay comfortably under 192KB UB with 4096 elements.
    const uint32_t maxChunk = 4096;
    uint32_t chunk = rowLen > maxChunk ? maxChunk : ((rowLen + 63) / 64 * 64);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t blocks = plat.GetCoreNumAiv();
    if (blocks > numRows) {
        blocks = numRows;
    }

    CosineDissimilarityMeanTilingData tiling;
    tiling.set_numRows(numRows);
    tiling.set_rowLen(rowLen);
    tiling.set_chunk(chunk);
    tiling.set_baseRows(numRows / blocks);
    tiling.set_extraRows(numRows % blocks);
    tiling.set_epsSq(eps * eps);
    tiling.set_scale(1.0f / static_cast<float>(numRows));

    context->SetBlockDim(blocks);
    context->SetTilingKey(isHalf ? 1 : 0);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    // SyncAll relies on the system workspace
    context->GetWorkspaceSizes(1)[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}
