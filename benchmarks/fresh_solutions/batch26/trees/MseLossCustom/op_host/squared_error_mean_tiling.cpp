#include "squared_error_mean_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static constexpr uint32_t MIN_PER_CORE = 4096;
static constexpr uint32_t ALIGN_ELEMS = 64;

ge::graphStatus SquaredErrorMeanTilingFunc(gert::TilingContext *ctx)
{
    uint64_t total = ctx->GetInputShape(0)->GetStorageShape().GetShapeSize();
    if (total != static_cast<uint64_t>(ctx->GetInputShape(1)->GetStorageShape().GetShapeSize())) {
        return ge::GRAPH_FAILED;   // no broadcasting here
    }
    bool isHalf = ctx->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16;

    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint32_t coreNum = plat.GetCoreNumAiv();
    uint64_t ubBytes = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubBytes);

    // spread evenly but do not wake cores for tiny inputs
    uint64_t per = (total + coreNum - 1) / coreNum;
    if (per < MIN_PER_CORE) {
        per = MIN_PER_CORE;
    }
    per = (per + ALIGN_ELEMS - 1) / ALIGN_ELEMS * ALIGN_ELEMS;
    uint32_t used = static_cast<uint32_t>((total + per - 1) / per);
    if (used == 0) {
        used = 1;
    }

    // UB: 2 inputs x 2 buffers (input dtype) + float work tiles (diff, accumulator, and casts for fp16)
    uint32_t inBytes = isHalf ? 2 : 4;
    uint32_t bytesPerElem = 4 * inBytes + (isHalf ? 3 : 1) * 4 + 4;
    uint32_t tile = static_cast<uint32_t>((ubBytes - 8 * 1024) / bytesPerElem);
    tile = tile / ALIGN_ELEMS * ALIGN_ELEMS;
    if (tile > 8192) {
        tile = 8192;
    }
    if (tile > per) {
        tile = static_cast<uint32_t>(per);
    }

    SquaredErrorMeanTilingData td;
    td.set_totalNum(total);
    td.set_perCoreNum(per);
    td.set_usedCores(used);
    td.set_tileNum(tile);
    td.set_invTotal(total == 0 ? 0.0f : 1.0f / static_cast<float>(total));

    ctx->SetBlockDim(used);
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());
    // one 32-byte slot per core for its partial sum
    size_t *ws = ctx->GetWorkspaceSizes(1);
    ws[0] = static_cast<size_t>(used) * 32 + plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}
