#include "spatial_batch_norm_train_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
// UB budget per element of a tile: 2x input queue (T) + 2x output queue (T)
// + float work copy + two float accumulators.
constexpr uint64_t UB_RESERVE = 8 * 1024;
constexpr uint32_t MAX_TILE = 8192;
}

ge::graphStatus SpatialBatchNormTrainTilingFunc(gert::TilingContext *context)
{
    auto shape = context->GetInputShape(0)->GetStorageShape();
    if (shape.GetDimNum() < 2) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = shape.GetDim(0);
    uint32_t c = shape.GetDim(1);
    uint64_t spatial = 1;
    for (size_t i = 2; i < shape.GetDimNum(); ++i) {
        spatial *= shape.GetDim(i);
    }

    float eps = 1e-5f;
    if (auto attrs = context->GetAttrs(); attrs != nullptr) {
        const float *e = attrs->GetAttrPointer<float>(0);
        if (e != nullptr) {
            eps = *e;
        }
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    uint64_t perElem = 4ULL * typeSize + 3ULL * sizeof(float);
    uint64_t tile = (ubSize - UB_RESERVE) / perElem;
    tile = tile / 64 * 64;
    if (tile > MAX_TILE) {
        tile = MAX_TILE;
    }
    if (tile > spatial) {
        tile = (spatial + 15) / 16 * 16;
    }

    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > c) {
        cores = c;
    }

    SpatialBatchNormTrainTilingData td;
    td.set_batch(n);
    td.set_channels(c);
    td.set_spatial(static_cast<uint32_t>(spatial));
    td.set_tileLen(static_cast<uint32_t>(tile));
    td.set_coreNum(cores);
    td.set_epsilon(eps);
    td.set_invCount(1.0f / static_cast<float>(static_cast<uint64_t>(n) * spatial));

    context->SetBlockDim(cores);
    context->SetTilingKey(typeSize == 2 ? 1 : 0);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}
