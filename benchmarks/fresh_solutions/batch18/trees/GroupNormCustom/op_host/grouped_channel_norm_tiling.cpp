#include "grouped_channel_norm_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t MAX_TILE_FP32 = 8192;   // 32 KB per fp32 buffer
constexpr uint32_t ALIGN_ELEMS = 64;
}

ge::graphStatus GroupedChannelNormTilingFunc(gert::TilingContext *context)
{
    const gert::StorageShape *xShape = context->GetInputShape(0);
    const gert::Shape &shape = xShape->GetStorageShape();
    if (shape.GetDimNum() < 2) {
        return ge::GRAPH_FAILED;
    }
    const auto *attrs = context->GetAttrs();
    const int64_t *groupsAttr = attrs->GetAttrPointer<int64_t>(0);
    const float *epsAttr = attrs->GetAttrPointer<float>(1);

    uint32_t batch = static_cast<uint32_t>(shape.GetDim(0));
    uint32_t channels = static_cast<uint32_t>(shape.GetDim(1));
    uint64_t spatial = 1;
    for (size_t i = 2; i < shape.GetDimNum(); ++i) {
        spatial *= static_cast<uint64_t>(shape.GetDim(i));
    }
    uint32_t groups = static_cast<uint32_t>(*groupsAttr);
    if (groups == 0 || channels % groups != 0) {
        return ge::GRAPH_FAILED;
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreCount = platform.GetCoreNumAiv();
    uint32_t totalGroups = batch * groups;
    uint32_t usedCores = std::min<uint32_t>(coreCount, std::max<uint32_t>(totalGroups, 1));

    // one tile never exceeds a channel's spatial plane, keep it 64-element aligned
    uint64_t tile = std::min<uint64_t>(spatial, MAX_TILE_FP32);
    tile = (tile + ALIGN_ELEMS - 1) / ALIGN_ELEMS * ALIGN_ELEMS;

    GroupedChannelNormTilingData td;
    td.set_numChannels(channels);
    td.set_numGroups(groups);
    td.set_chPerGroup(channels / groups);
    td.set_spatialSize(spatial);
    td.set_groupSize(spatial * (channels / groups));
    td.set_totalGroups(totalGroups);
    td.set_groupsPerCore(totalGroups / usedCores);
    td.set_extraGroups(totalGroups % usedCores);
    td.set_tileLen(static_cast<uint32_t>(tile));
    td.set_epsilon(epsAttr == nullptr ? 1e-5f : *epsAttr);

    context->SetBlockDim(usedCores);
    context->SetTilingKey(1);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
