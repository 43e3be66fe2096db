#include "groupwise_standardize_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus GroupwiseStandardizeTiling(gert::TilingContext *ctx)
{
    const gert::Shape &xs = ctx->GetInputShape(0)->GetStorageShape();
    if (xs.GetDimNum() < 2) {
        return ge::GRAPH_FAILED;
    }
    const auto *attrs = ctx->GetAttrs();
    const int64_t *groupsAttr = attrs->GetAttrPointer<int64_t>(0);
    const float *epsAttr = attrs->GetAttrPointer<float>(1);
    uint32_t groups = static_cast<uint32_t>(*groupsAttr);
    float eps = epsAttr != nullptr ? *epsAttr : 1e-5f;

    uint32_t batch = static_cast<uint32_t>(xs.GetDim(0));
    uint32_t channels = static_cast<uint32_t>(xs.GetDim(1));
    if (groups == 0 || channels % groups != 0) {
        return ge::GRAPH_FAILED;
    }
    uint64_t spatial = 1;
    for (size_t i = 2; i < xs.GetDimNum(); ++i) {
        spatial *= static_cast<uint64_t>(xs.GetDim(i));
    }

    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);

    bool half = ctx->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16;
    // per element: in (x2) + out (x2) in T, plus three fp32 work tiles (value, sum, sum of squares)
    uint32_t perElem = (half ? 2 : 4) * 4 + 12;
    uint32_t tile = static_cast<uint32_t>((ub - 16 * 1024) / perElem) / 64 * 64;
    if (tile > 16384) {
        tile = 16384;
    }
    if (tile > spatial) {
        tile = static_cast<uint32_t>((spatial + 63) / 64 * 64);
    }

    uint32_t items = batch * groups;
    uint32_t used = items < cores ? items : cores;
    used = used == 0 ? 1 : used;

    GroupwiseStandardizeTilingData td;
    td.set_numGroups(groups);
    td.set_chPerGroup(channels / groups);
    td.set_channels(channels);
    td.set_spatial(spatial);
    td.set_totalItems(items);
    td.set_itemsPerCore(items / used);
    td.set_extraItems(items % used);
    td.set_tileLen(tile);
    td.set_eps(eps);
    td.set_invCount(1.0f / static_cast<float>(static_cast<double>(channels / groups) * spatial));

    ctx->SetBlockDim(used);
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());
    ctx->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}
