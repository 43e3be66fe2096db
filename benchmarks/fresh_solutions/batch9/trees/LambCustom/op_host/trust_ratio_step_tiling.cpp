#include "trust_ratio_step_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_FP32 = 4096;
constexpr uint32_t TILE_FP16 = 4096;
constexpr uint64_t ALIGN_ELEMS = 64;
constexpr uint32_t PARTIAL_STRIDE = 8;   // floats per core in the partial-sum area (one 32B block)

static ge::graphStatus TrustRatioStepTiling(gert::TilingContext *context)
{
    uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    auto dtype = context->GetInputDesc(0)->GetDataType();
    const float *lr = context->GetAttrs()->GetAttrPointer<float>(0);
    const float *eps = context->GetAttrs()->GetAttrPointer<float>(1);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();

    uint64_t perCore = (total + cores - 1) / cores;
    perCore = (perCore + ALIGN_ELEMS - 1) / ALIGN_ELEMS * ALIGN_ELEMS;
    uint32_t used = static_cast<uint32_t>((total + perCore - 1) / perCore);
    if (used == 0) {
        used = 1;
    }

    TrustRatioStepTilingData td;
    td.set_totalNum(total);
    td.set_perCore(perCore);
    td.set_tileLen(dtype == ge::DT_FLOAT16 ? TILE_FP16 : TILE_FP32);
    td.set_usedCores(used);
    td.set_lr(*lr);
    td.set_eps(*eps);

    context->SetTilingKey(dtype == ge::DT_FLOAT16 ? 1 : 0);
    context->SetBlockDim(used);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    // each core publishes (sum p^2, sum r^2) in its own 32B slot
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize() + static_cast<size_t>(used) * PARTIAL_STRIDE * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ops {
ge::graphStatus TrustRatioStepTilingFunc(gert::TilingContext *context)
{
    return optiling::TrustRatioStepTiling(context);
}
}
