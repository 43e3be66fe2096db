#include "deconv3d_relu_group_norm_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t FLOATS_PER_BLOCK = 8;
constexpr uint32_t MAX_KERNEL = 8;        // left/right padding of DataCopyPad is limited to one 32B block
constexpr uint32_t NORM_TILE = 8192;
}

ge::graphStatus Deconv3dReluGroupNormTiling(gert::TilingContext *context)
{
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &ws = context->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 5 || ws.GetDimNum() != 5) {
        return ge::GRAPH_FAILED;
    }
    const auto *attrs = context->GetAttrs();
    const int64_t *groupsAttr = attrs->GetAttrPointer<int64_t>(0);
    const float *epsAttr = attrs->GetAttrPointer<float>(1);

    uint32_t n = static_cast<uint32_t>(xs.GetDim(0));
    uint32_t cin = static_cast<uint32_t>(xs.GetDim(1));
    uint32_t d = static_cast<uint32_t>(xs.GetDim(2));
    uint32_t h = static_cast<uint32_t>(xs.GetDim(3));
    uint32_t w = static_cast<uint32_t>(xs.GetDim(4));
    uint32_t cout = static_cast<uint32_t>(ws.GetDim(1));
    uint32_t k = static_cast<uint32_t>(ws.GetDim(2));
    uint32_t groups = static_cast<uint32_t>(*groupsAttr);
    if (groups == 0 || cout % groups != 0 || k == 0 || k > MAX_KERNEL || ws.GetDim(0) != cin) {
        return ge::GRAPH_FAILED;
    }

    // stride 1, no padding: every output extent grows by k - 1
    uint32_t od = d + k - 1;
    uint32_t oh = h + k - 1;
    uint32_t ow = w + k - 1;
    uint32_t owAlign = (ow + FLOATS_PER_BLOCK - 1) / FLOATS_PER_BLOCK * FLOATS_PER_BLOCK;

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint32_t jobs = n * groups;
    uint32_t usedCores = jobs < coreNum ? jobs : coreNum;
    if (usedCores == 0) {
        usedCores = 1;
    }

    Deconv3dReluGroupNormTilingData tiling;
    tiling.set_batch(n);
    tiling.set_inChannels(cin);
    tiling.set_outChannels(cout);
    tiling.set_inD(d);
    tiling.set_inH(h);
    tiling.set_inW(w);
    tiling.set_kSize(k);
    tiling.set_outD(od);
    tiling.set_outH(oh);
    tiling.set_outW(ow);
    tiling.set_outWAlign(owAlign);
    tiling.set_numGroups(groups);
    tiling.set_chPerGroup(cout / groups);
    tiling.set_totalJobs(jobs);
    tiling.set_jobsPerCore((jobs + usedCores - 1) / usedCores);
    tiling.set_normTile(NORM_TILE);
    tiling.set_eps(*epsAttr);

    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *ws0 = context->GetWorkspaceSizes(1);
    ws0[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
