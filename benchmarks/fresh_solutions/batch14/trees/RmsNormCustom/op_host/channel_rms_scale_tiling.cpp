#include "channel_rms_scale_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t ALIGN_BYTES = 32;
constexpr uint32_t MAX_COL_TILE = 2048;
// UB usage per column of the tile: double buffered in/out (T) + fp32 work rows (x, acc)
constexpr uint64_t UB_RESERVE = 8 * 1024;
}

ge::graphStatus ChannelRmsScaleTiling(gert::TilingContext *context)
{
    ChannelRmsScaleTilingData td;
    const gert::StorageShape *xs = context->GetInputShape(0);
    const gert::Shape &shape = xs->GetStorageShape();
    const size_t rank = shape.GetDimNum();
    if (rank < 2) {
        return ge::GRAPH_FAILED;
    }
    const int64_t *axisAttr = context->GetAttrs()->GetAttrPointer<int64_t>(1);
    int64_t axis = axisAttr ? *axisAttr : 1;
    if (axis < 0) {
        axis += static_cast<int64_t>(rank);
    }
    uint64_t outer = 1, inner = 1;
    for (int64_t i = 0; i < axis; ++i) outer *= shape.GetDim(i);
    for (size_t i = axis + 1; i < rank; ++i) inner *= shape.GetDim(i);
    const uint32_t channels = static_cast<uint32_t>(shape.GetDim(axis));

    const ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    const uint32_t elemBytes = (dt == ge::DT_FLOAT16) ? 2 : 4;
    const uint32_t alignElems = ALIGN_BYTES / elemBytes;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const uint32_t coreNum = plat.GetCoreNumAiv();

    // bytes per column: 2 x (in + out) rows of `channels` elements + fp32 copy of channels rows + 2 fp32 rows
    uint64_t perCol = 4ULL * channels * elemBytes + 4ULL * channels + 2 * 4;
    uint64_t colTile = (ubSize - UB_RESERVE) / perCol;
    colTile = std::min<uint64_t>(colTile, MAX_COL_TILE);
    colTile = std::min<uint64_t>(colTile, (inner + alignElems - 1) / alignElems * alignElems);
    colTile = colTile / 8 * 8; // keep fp32 rows 32B aligned as well
    if (colTile == 0) {
        return ge::GRAPH_FAILED; // channel axis too long for one pass
    }
    const uint32_t tilesPerRow = static_cast<uint32_t>((inner + colTile - 1) / colTile);
    const uint32_t total = static_cast<uint32_t>(outer) * tilesPerRow;
    const uint32_t usedCores = std::max<uint32_t>(1, std::min<uint32_t>(coreNum, total));

    const float *epsAttr = context->GetAttrs()->GetAttrPointer<float>(0);
    td.set_outer(static_cast<uint32_t>(outer));
    td.set_channels(channels);
    td.set_inner(static_cast<uint32_t>(inner));
    td.set_colTile(static_cast<uint32_t>(colTile));
    td.set_colTilesPerRow(tilesPerRow);
    td.set_totalTasks(total);
    td.set_tasksPerCore(total / usedCores);
    td.set_tailCoreTasks(total % usedCores);
    td.set_eps(epsAttr ? *epsAttr : 1e-5f);
    td.set_invChannels(1.0f / static_cast<float>(channels));

    context->SetBlockDim(usedCores);
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 1 : 0);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
