#include "triplet_distance_hinge_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static constexpr uint32_t COL_TILE_MAX = 4096;
static constexpr uint32_t PARTIAL_STRIDE_BYTES = 32; // one partial per core, 32B apart

ge::graphStatus TripletDistanceHingeTilingFunc(gert::TilingContext *context)
{
    auto shp = context->GetInputShape(0)->GetStorageShape();
    if (shp.GetDimNum() < 1) {
        return ge::GRAPH_FAILED;
    }
    uint32_t dim = shp.GetDim(shp.GetDimNum() - 1);
    uint32_t rows = static_cast<uint32_t>(shp.GetShapeSize() / dim);

    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    float margin = *attrs->GetAttrPointer<float>(0);
    float eps = *attrs->GetAttrPointer<float>(1);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t perCore = (rows + cores - 1) / cores;
    uint32_t used = (rows + perCore - 1) / perCore;

    uint32_t tile = dim < COL_TILE_MAX ? (dim + 15) / 16 * 16 : COL_TILE_MAX;

    TripletDistanceHingeTilingData td;
    td.set_rows(rows);
    td.set_dim(dim);
    td.set_colTile(tile);
    td.set_rowsPerCore(perCore);
    td.set_usedCores(used);
    td.set_margin(margin);
    td.set_eps(eps);
    td.set_invRows(1.0f / static_cast<float>(rows));

    context->SetBlockDim(used);
    context->SetTilingKey(context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 1 : 0);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    // system workspace (needed by SyncAll) + per-core partial sums
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize() + static_cast<size_t>(used) * PARTIAL_STRIDE_BYTES;
    return ge::GRAPH_SUCCESS;
}
}
