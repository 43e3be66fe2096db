#include "smooth_relu_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// UB budget: x queue(2) + y queue(2) in dtype, plus 2 float scratch tiles
static constexpr uint32_t UB_RESERVE = 8 * 1024;

ge::graphStatus SmoothReluTilingFunc(gert::TilingContext *context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = platform.GetCoreNumAiv();

    uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t typeSize = (dt == ge::DT_FLOAT16) ? 2 : 4;
    uint32_t alignNum = 32 / typeSize;

    // split in whole 32B blocks; the very last block may be partial (handled by DataCopyPad)
    uint64_t blocks = (total + alignNum - 1) / alignNum;
    if (blocks < coreNum) {
        coreNum = blocks == 0 ? 1 : static_cast<uint32_t>(blocks);
    }
    uint64_t perCore = blocks / coreNum;
    uint64_t bigCores = blocks % coreNum;

    // bytes per element held in UB: 2*in + 2*out (dtype) + 2 float temps
    uint32_t perElem = 4 * typeSize + 2 * sizeof(float);
    uint32_t tile = static_cast<uint32_t>((ubSize - UB_RESERVE) / perElem);
    tile = tile / 256 * 256;  // keep repeats full
    if (tile == 0) {
        tile = 256;
    }

    SmoothReluTilingData tiling;
    tiling.set_totalNum(total);
    tiling.set_bigCoreNum(bigCores);
    tiling.set_blocksPerCore(perCore);
    tiling.set_tileNum(tile);
    tiling.set_alignNum(alignNum);

    context->SetBlockDim(coreNum);
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 1 : 0);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
