// Tiling for TrustRatioParamUpdate: flat element split, 256-element aligned core chunks.
#include "trust_ratio_param_update_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static constexpr uint32_t CHUNK_ALIGN = 256;
static constexpr uint32_t SLOT_BYTES = 64;     // per-core partials: ||p||^2 at +0, ||r||^2 at +32B

ge::graphStatus TrustRatioParamUpdateTilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);

    uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    if (total == 0) {
        return ge::GRAPH_FAILED;
    }
    if (context->GetInputShape(1)->GetStorageShape().GetShapeSize() != total ||
        context->GetInputShape(2)->GetStorageShape().GetShapeSize() != total) {
        return ge::GRAPH_FAILED;
    }
    bool isHalf = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16;
    uint32_t elemBytes = isHalf ? 2 : 4;

    uint64_t perCore = (total + cores - 1) / cores;
    perCore = (perCore + CHUNK_ALIGN - 1) / CHUNK_ALIGN * CHUNK_ALIGN;
    uint32_t used = static_cast<uint32_t>((total + perCore - 1) / perCore);

    // p, m, v in (x2) + out (x2) in dtype, 5 float work buffers
    uint64_t perElem = 4ULL * 2 * elemBytes + 5ULL * sizeof(float);
    uint32_t tile = static_cast<uint32_t>((ub - 8 * 1024) / perElem) / CHUNK_ALIGN * CHUNK_ALIGN;
    tile = tile > 4096 ? 4096 : tile;
    if (tile > perCore) {
        tile = static_cast<uint32_t>(perCore);
    }

    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    const float *lr = attrs->GetAttrPointer<float>(0);
    const float *eps = attrs->GetAttrPointer<float>(1);

    TrustRatioParamUpdateTilingData td;
    td.set_total(total);
    td.set_perCore(perCore);
    td.set_tileLen(tile);
    td.set_coreCount(used);
    td.set_lr(lr ? *lr : 1e-3f);
    td.set_eps(eps ? *eps : 1e-6f);

    context->SetBlockDim(used);
    context->SetTilingKey(isHalf ? 1 : 0);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize() + static_cast<size_t>(used) * SLOT_BYTES;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
