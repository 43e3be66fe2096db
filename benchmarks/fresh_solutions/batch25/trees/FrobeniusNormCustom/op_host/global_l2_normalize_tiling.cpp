#include "global_l2_normalize_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t PARTIAL_STRIDE = 8;  // one 32B slot of float per core in the workspace
}

ge::graphStatus GlobalL2NormalizeTilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubBytes = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubBytes);

    uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    bool isHalf = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16;
    uint32_t esz = isHalf ? 2 : 4;
    uint32_t alignElems = 32 / esz;

    uint32_t cores = plat.GetCoreNumAiv();
    uint64_t chunks = (total + alignElems - 1) / alignElems;
    if (chunks < cores) {
        cores = chunks == 0 ? 1 : static_cast<uint32_t>(chunks);
    }
    uint64_t perCore = (chunks / cores) * alignElems;

    // UB: in x2, out x2 (dtype) + fp32 work, square and accumulator tiles
    uint64_t perElem = 4ULL * esz + 3ULL * sizeof(float);
    uint32_t tile = static_cast<uint32_t>((ubBytes - 4096) / perElem);
    tile = tile / 64 * 64;

    const float *epsAttr = context->GetAttrs()->GetAttrPointer<float>(0);

    GlobalL2NormalizeTilingData td;
    td.set_totalLen(total);
    td.set_perCore(perCore);
    td.set_tileLen(tile);
    td.set_coreNum(cores);
    td.set_eps(epsAttr == nullptr ? 0.0f : *epsAttr);

    context->SetBlockDim(cores);
    context->SetTilingKey(isHalf ? 1 : 0);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    // partial sums of squares, one 32B slot per core
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize() + static_cast<size_t>(cores) * PARTIAL_STRIDE * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
