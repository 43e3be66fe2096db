#include "squared_error_mean_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t ALIGN_BYTES = 32;
constexpr uint32_t TILE_BYTES = 16 * 1024;   // per input buffer, before double buffering
constexpr uint32_t PARTIAL_SLOT = 8;         // floats reserved per core in the partial-sum area
}

static ge::graphStatus SquaredErrorMeanTilingFunc(gert::TilingContext *context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    if (coreNum == 0) {
        coreNum = 1;
    }

    uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    if (total == 0) {
        return ge::GRAPH_FAILED;
    }
    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t elemSize = (dt == ge::DT_FLOAT16) ? 2 : 4;
    uint32_t alignElems = ALIGN_BYTES / elemSize;

    // split work into aligned chunks so each core starts on a 32B boundary
    uint64_t chunks = (total + alignElems - 1) / alignElems;
    uint32_t used = static_cast<uint32_t>(std::min<uint64_t>(coreNum, chunks));
    uint64_t chunksPerCore = (chunks + used - 1) / used;
    used = static_cast<uint32_t>((chunks + chunksPerCore - 1) / chunksPerCore);
    uint64_t perCore = chunksPerCore * alignElems;
    uint64_t lastCore = total - perCore * (used - 1);

    uint32_t tileLen = TILE_BYTES / 4;  // compute is in fp32 regardless of input type
    if (tileLen > perCore) {
        tileLen = static_cast<uint32_t>((perCore + alignElems - 1) / alignElems * alignElems);
    }

    SquaredErrorMeanTilingData tiling;
    tiling.set_totalNum(total);
    tiling.set_perCoreNum(perCore);
    tiling.set_lastCoreNum(lastCore);
    tiling.set_tileLen(tileLen);
    tiling.set_usedCores(used);
    tiling.set_invTotal(1.0f / static_cast<float>(total));

    context->SetBlockDim(used);
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 1 : 0);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    // system workspace (needed by SyncAll) + one 32B slot of partial sums per core
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = platform.GetLibApiWorkSpaceSize() + static_cast<size_t>(used) * PARTIAL_SLOT * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
// referenced from the OpDef in squared_error_mean_def.cpp
ge::graphStatus SquaredErrorMeanTiling(gert::TilingContext *context)
{
    return optiling::SquaredErrorMeanTilingFunc(context);
}
}  // namespace ops
