#include "tanh_gelu_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus TanhGeluTilingFunc(gert::TilingContext* context)
{
    uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = plat.GetCoreNumAiv();
    uint64_t ubBytes = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubBytes);

    bool fp16 = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16;
    uint32_t elemBytes = fp16 ? 2 : 4;
    // double-buffered in/out of T + two float32 scratch tiles
    uint32_t bytesPerElem = 4 * elemBytes + 2 * 4;
    uint32_t tile = static_cast<uint32_t>((ubBytes - 4096) / bytesPerElem);
    tile = tile / 128 * 128;
    if (tile > 8192) {
        tile = 8192;
    }

    // split in 256-byte granules so that every core starts at an aligned address
    uint64_t granule = 256 / elemBytes;
    uint64_t granules = (total + granule - 1) / granule;
    uint64_t perCoreGran = (granules + coreNum - 1) / coreNum;
    uint64_t perCore = perCoreGran * granule;
    uint32_t blockDim = static_cast<uint32_t>((total + perCore - 1) / perCore);
    if (blockDim == 0) {
        blockDim = 1;
    }

    TanhGeluTilingData tiling;
    tiling.set_totalNum(total);
    tiling.set_perCore(perCore);
    tiling.set_tileNum(tile);
    context->SetBlockDim(blockDim);
    context->SetTilingKey(fp16 ? 2 : 1);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}
