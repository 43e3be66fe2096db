#include "hyperbolic_tangent_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace optiling {
ge::graphStatus HyperbolicTangentTilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t cores = plat.GetCoreNumAiv();

    uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    uint32_t esz = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;

    // UB split: 2 input + 2 output buffers + API scratch (sized ~ 2x a tile of fp32)
    uint32_t tile = static_cast<uint32_t>(ub / (4 * esz + 8));
    tile = tile / 256 * 256;
    if (tile > 16384) {
        tile = 16384;
    }
    ge::Shape tileShape({static_cast<int64_t>(tile)});
    uint32_t maxTmp = 0, minTmp = 0;
    AscendC::GetTanhMaxMinTmpSize(tileShape, esz, false, maxTmp, minTmp);
    while (4ULL * tile * esz + maxTmp > ub - 1024 && tile > 256) {
        tile -= 256;
        tileShape = ge::Shape({static_cast<int64_t>(tile)});
        AscendC::GetTanhMaxMinTmpSize(tileShape, esz, false, maxTmp, minTmp);
    }

    uint64_t tiles = (total + tile - 1) / tile;
    if (tiles < cores) {
        cores = static_cast<uint32_t>(tiles == 0 ? 1 : tiles);
    }

    HyperbolicTangentTilingData td;
    td.set_totalNum(total);
    td.set_tileNum(tile);
    td.set_tilesPerCore(tiles / cores);
    td.set_bigCoreNum(tiles % cores);
    td.set_tmpBytes(maxTmp);

    context->SetBlockDim(cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
