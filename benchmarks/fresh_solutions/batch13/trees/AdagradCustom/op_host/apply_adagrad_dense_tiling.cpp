#include "apply_adagrad_dense_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t TILING_KEY_FP32 = 0;
constexpr uint32_t TILING_KEY_FP16 = 1;
constexpr uint32_t BLOCK_BYTES = 32;
}

ge::graphStatus ApplyAdagradDenseTiling(gert::TilingContext *context)
{
    ApplyAdagradDenseTilingData td;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubBytes = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubBytes);
    uint32_t coreNum = plat.GetCoreNumAiv();

    const uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    if (context->GetInputShape(1)->GetStorageShape().GetShapeSize() != total ||
        context->GetInputShape(2)->GetStorageShape().GetShapeSize() != total) {
        return ge::GRAPH_FAILED;
    }
    const ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    const uint32_t typeBytes = (dt == ge::DT_FLOAT16) ? 2 : 4;
    const uint32_t alignNum = BLOCK_BYTES / typeBytes;

    // UB per element: 3 inputs x2 buffers + 2 outputs x2 buffers in io dtype,
    // plus (fp16 only) 4 fp32 compute buffers; fp32 needs one scratch buffer.
    uint64_t perElem = 10ULL * typeBytes + (typeBytes == 2 ? 4ULL * 4 : 4ULL);
    uint64_t tile = (ubBytes - 4096) / perElem;
    tile = tile / 64 * 64;          // keep full 256B repeats
    if (tile > 8192) tile = 8192;

    // split in whole 32B blocks so every core starts aligned
    uint64_t blocks = (total + alignNum - 1) / alignNum;
    if (blocks < coreNum) coreNum = blocks == 0 ? 1 : static_cast<uint32_t>(blocks);
    uint64_t blocksPerCore = (blocks + coreNum - 1) / coreNum;
    uint32_t bigCores = static_cast<uint32_t>(blocks - (blocksPerCore - 1) * coreNum);
    if (blocks % coreNum == 0) bigCores = coreNum;

    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    const float *lr = attrs->GetAttrPointer<float>(0);
    const float *eps = attrs->GetAttrPointer<float>(1);

    td.set_totalNum(total);
    td.set_perCoreNum(blocksPerCore * alignNum);
    td.set_bigCores(bigCores);
    td.set_alignNum(alignNum);
    td.set_tileNum(static_cast<uint32_t>(tile));
    td.set_lr(lr == nullptr ? 0.01f : *lr);
    td.set_epsilon(eps == nullptr ? 1e-10f : *eps);

    context->SetTilingKey(dt == ge::DT_FLOAT16 ? TILING_KEY_FP16 : TILING_KEY_FP32);
    context->SetBlockDim(coreNum);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}
