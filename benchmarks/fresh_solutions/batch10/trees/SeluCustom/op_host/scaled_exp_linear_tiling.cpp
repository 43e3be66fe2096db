#include "scaled_exp_linear_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t KEY_FP32 = 0;
constexpr uint32_t KEY_FP16 = 1;

ge::graphStatus ScaledExpLinearTilingFunc(gert::TilingContext *context)
{
    uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    ge::DataType dtype = context->GetInputDesc(0)->GetDataType();
    bool isHalf = dtype == ge::DT_FLOAT16;
    uint32_t typeSize = isHalf ? 2 : 4;
    uint32_t align = 32 / typeSize;

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    // split in whole 32B blocks; the last core also takes the ragged end
    uint64_t blocks = (total + align - 1) / align;
    uint32_t used = blocks < coreNum ? static_cast<uint32_t>(blocks) : coreNum;
    if (used == 0) {
        used = 1;
    }
    uint64_t perCore = (blocks / used) * align;
    uint64_t lastCore = total - perCore * (used - 1);

    // UB per element: in x2 + out x2 in T, plus two float scratch buffers
    uint32_t bytesPerElem = 4 * typeSize + 2 * sizeof(float);
    uint32_t tile = static_cast<uint32_t>((ubSize - 4096) / bytesPerElem);
    tile = tile / 64 * 64;  // keep full 256B vector repeats
    if (tile > 16384) {
        tile = 16384;
    }

    float alpha = 1.6732632423543772f;
    float scale = 1.0507009873554805f;
    if (const gert::RuntimeAttrs *attrs = context->GetAttrs()) {
        if (const float *a = attrs->GetAttrPointer<float>(0)) {
            alpha = *a;
        }
        if (const float *s = attrs->GetAttrPointer<float>(1)) {
            scale = *s;
        }
    }

    ScaledExpLinearTilingData tiling;
    tiling.set_totalNum(total);
    tiling.set_perCoreNum(perCore);
    tiling.set_lastCoreNum(lastCore);
    tiling.set_tileNum(tile);
    tiling.set_alpha(alpha);
    tiling.set_scale(scale);

    context->SetBlockDim(used);
    context->SetTilingKey(isHalf ? KEY_FP16 : KEY_FP32);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
