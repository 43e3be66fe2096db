#include "tanh_gelu_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus TanhGeluTilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    auto dtype = context->GetInputDesc(0)->GetDataType();
    bool isHalf = (dtype == ge::DT_FLOAT16);

    // blocks of 256 elements keep every core start 32B aligned for both dtypes
    constexpr uint64_t GRAIN = 256;
    uint64_t grains = (total + GRAIN - 1) / GRAIN;
    uint64_t perCore = (grains + cores - 1) / cores * GRAIN;
    uint32_t used = static_cast<uint32_t>((total + perCore - 1) / perCore);
    if (used == 0) {
        used = 1;
    }
    // UB: in x2, out x2, two fp32 temps -> keep the tile modest
    uint32_t tileLen = isHalf ? 4096 : 6144;

    TanhGeluTilingData td;
    td.set_total(total);
    td.set_blockLen(perCore);
    td.set_tileLen(tileLen);
    context->SetBlockDim(used);
    context->SetTilingKey(isHalf ? 2 : 1);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}
