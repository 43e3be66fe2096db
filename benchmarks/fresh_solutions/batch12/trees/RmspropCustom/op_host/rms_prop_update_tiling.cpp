// Tiling for RmsPropUpdate: a flat, element-wise split over all AI vector cores.
#include "rms_prop_update_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static constexpr uint32_t TILE_ELEMS_FP32 = 2048;   // 5 queues x 2 buffers x 8 KB + 32 KB fp32 scratch
static constexpr uint32_t TILE_ELEMS_FP16 = 4096;   // 5 x 2 x 8 KB + 64 KB fp32 scratch
static constexpr uint64_t BYTES_PER_BLOCK = 32;

ge::graphStatus RmsPropUpdateTilingFunc(gert::TilingContext *context)
{
    uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t typeSize = (dt == ge::DT_FLOAT16) ? 2 : 4;
    uint64_t alignElem = BYTES_PER_BLOCK / typeSize;

    auto ascendc = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t cores = ascendc.GetCoreNumAiv();
    if (cores == 0) {
        cores = 1;
    }
    // keep every core's start 32-byte aligned
    uint64_t perCore = (total + cores - 1) / cores;
    perCore = (perCore + alignElem - 1) / alignElem * alignElem;
    if (perCore == 0) {
        perCore = alignElem;
    }
    uint64_t usedCores = (total + perCore - 1) / perCore;
    if (usedCores == 0) {
        usedCores = 1;
    }

    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    float lr = *attrs->GetAttrPointer<float>(0);
    float alpha = *attrs->GetAttrPointer<float>(1);
    float eps = *attrs->GetAttrPointer<float>(2);

    RmsPropUpdateTilingData td;
    td.set_totalNum(total);
    td.set_perCoreNum(perCore);
    td.set_tileNum(typeSize == 2 ? TILE_ELEMS_FP16 : TILE_ELEMS_FP32);
    td.set_lr(lr);
    td.set_alpha(alpha);
    td.set_eps(eps);

    context->SetBlockDim(static_cast<uint32_t>(usedCores));
    context->SetTilingKey(typeSize == 2 ? 1 : 0);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
