// Host-side tiling for PiecewiseSigmoid: a flat elementwise split.
#include "piecewise_sigmoid_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static constexpr uint32_t BUFFER_NUM = 2;
static constexpr uint32_t QUEUE_NUM = 2;      // one in-queue + one out-queue
static constexpr uint32_t MAX_TILE_BYTES = 32 * 1024;

ge::graphStatus PiecewiseSigmoidTiling(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores == 0) {
        cores = 1;
    }

    const uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    const ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    const uint32_t elemBytes = (dt == ge::DT_FLOAT) ? 4 : 2;
    const uint32_t alignElems = 32 / elemBytes;

    // Split into 32B-aligned per-core chunks; the last core picks up the remainder.
    uint64_t perCore = (total + cores - 1) / cores;
    perCore = (perCore + alignElems - 1) / alignElems * alignElems;
    if (perCore == 0) {
        perCore = alignElems;
    }
    uint32_t used = static_cast<uint32_t>((total + perCore - 1) / perCore);
    if (used == 0) {
        used = 1;
    }

    // Tile size: half precision is computed in float32, so reserve a cast buffer.
    uint64_t budget = ub / (BUFFER_NUM * QUEUE_NUM + (elemBytes == 2 ? 2 : 0));
    if (budget > MAX_TILE_BYTES) {
        budget = MAX_TILE_BYTES;
    }
    uint32_t tile = static_cast<uint32_t>(budget / 4) / 64 * 64;  // size by the fp32 compute buffer
    if (tile > perCore) {
        tile = static_cast<uint32_t>(perCore);
    }

    float alpha = 1.0f / 6.0f;
    float beta = 0.5f;
    auto attrs = context->GetAttrs();
    if (attrs != nullptr) {
        const float *a = attrs->GetAttrPointer<float>(0);
        const float *b = attrs->GetAttrPointer<float>(1);
        alpha = a != nullptr ? *a : alpha;
        beta = b != nullptr ? *b : beta;
    }

    PiecewiseSigmoidTilingData td;
    td.set_totalNum(total);
    td.set_perCoreNum(perCore);
    td.set_tileNum(tile);
    td.set_alpha(alpha);
    td.set_beta(beta);

    context->SetBlockDim(used);
    context->SetTilingKey(elemBytes == 4 ? 0 : 1);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
