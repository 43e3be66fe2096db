#include "momentum_sgd_update_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// tiling keys select the element type in the kernel
constexpr uint64_t KEY_FP32 = 1;
constexpr uint64_t KEY_FP16 = 2;
constexpr uint32_t ELEM_ALIGN = 16;   // 32B for fp16, 64B for fp32 - keeps both aligned

ge::graphStatus MomentumSgdUpdateTiling(gert::TilingContext *ctx)
{
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    const uint32_t cores = plat.GetCoreNumAiv();
    const uint64_t n = ctx->GetInputShape(0)->GetStorageShape().GetShapeSize();
    const bool isHalf = ctx->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16;

    // Split n into aligned units; the first `formerNum` cores get one more unit than the others.
    const uint64_t units = (n + ELEM_ALIGN - 1) / ELEM_ALIGN;
    uint32_t used = units < cores ? static_cast<uint32_t>(units) : cores;
    if (used == 0) {
        used = 1;
    }
    const uint64_t base = units / used;
    const uint32_t formerNum = static_cast<uint32_t>(units % used);

    MomentumSgdUpdateTilingData td;
    td.set_totalLength(static_cast<uint32_t>(n));
    td.set_formerNum(formerNum);
    td.set_formerLength(static_cast<uint32_t>((base + 1) * ELEM_ALIGN));
    td.set_tailLength(static_cast<uint32_t>(base * ELEM_ALIGN));
    // 3 inputs + 2 outputs, double-buffered, plus fp32 scratch for the fp16 path.
    td.set_tileLength(isHalf ? 2048 : 4096);

    auto attrs = ctx->GetAttrs();
    td.set_lr(*attrs->GetAttrPointer<float>(0));
    td.set_momentum(*attrs->GetAttrPointer<float>(1));

    ctx->SetTilingKey(isHalf ? KEY_FP16 : KEY_FP32);
    ctx->SetBlockDim(used);
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());
    ctx->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
