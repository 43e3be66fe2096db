#include "spatial_batch_norm_train_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus SpatialBatchNormTrainTilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);

    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    if (xs.GetDimNum() < 2) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = xs.GetDim(0);
    uint32_t c = xs.GetDim(1);
    uint64_t sp = 1;
    for (size_t i = 2; i < xs.GetDimNum(); ++i) {
        sp *= xs.GetDim(i);
    }

    uint32_t dsize = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
    uint32_t used = c < cores ? c : cores;
    if (used == 0) {
        used = 1;
    }
    uint32_t per = (c + used - 1) / used;
    uint32_t fat = c % used == 0 ? used : c % used;
    uint32_t statCap = (per + 7) / 8 * 8;

    // per tile: 2 in + 2 out buffers of T, 4 float work tiles (x in float, sum, sum of squares, scratch)
    uint64_t budget = ub - 8 * 1024 - 2 * statCap * sizeof(float);
    uint64_t tile = budget / (4 * dsize + 4 * sizeof(float));
    tile = tile / 64 * 64;
    uint64_t spAligned = (sp + 63) / 64 * 64;
    if (spAligned < tile) {
        tile = spAligned;
    }

    SpatialBatchNormTrainTilingData td;
    td.set_batch(n);
    td.set_channels(c);
    td.set_spatial(sp);
    td.set_tileLen(static_cast<uint32_t>(tile));
    td.set_chPerCore(per);
    td.set_fatCores(fat);
    td.set_statCap(statCap);
    const float *eps = context->GetAttrs()->GetAttrPointer<float>(0);
    td.set_epsilon(eps ? *eps : 1e-5f);

    context->SetBlockDim(used);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
