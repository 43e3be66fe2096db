#include "upconv3d_relu_gn_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

static ge::graphStatus Upconv3dReluGnTilingFunc(gert::TilingContext *context)
{
    auto xShape = context->GetInputShape(0)->GetStorageShape();  // [N, Cin, D, H, W]
    auto wShape = context->GetInputShape(1)->GetStorageShape();  // [Cin, Cout, K, K, K]
    auto attrs = context->GetAttrs();
    uint32_t groups = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    float eps = *attrs->GetAttrPointer<float>(1);

    Upconv3dReluGnTiling tiling;
    uint32_t cOut = wShape.GetDim(1);
    uint32_t k = wShape.GetDim(2);
    if (groups == 0 || cOut % groups != 0 || xShape.GetDim(1) != wShape.GetDim(0)) {
        return ge::GRAPH_FAILED;
    }
    uint32_t d = xShape.GetDim(2), h = xShape.GetDim(3), w = xShape.GetDim(4);
    // unit stride, no padding: every output extent grows by k - 1
    uint32_t wOut = w + k - 1;

    tiling.set_n(xShape.GetDim(0));
    tiling.set_cIn(xShape.GetDim(1));
    tiling.set_cOut(cOut);
    tiling.set_dIn(d);
    tiling.set_hIn(h);
    tiling.set_wIn(w);
    tiling.set_k(k);
    tiling.set_dOut(d + k - 1);
    tiling.set_hOut(h + k - 1);
    tiling.set_wOut(wOut);
    tiling.set_rowPitch((wOut + 7) / 8 * 8);
    tiling.set_groups(groups);
    tiling.set_chPerGroup(cOut / groups);
    tiling.set_normChunk(8192);
    tiling.set_eps(eps);

    // one (sample, group) pair per work item: statistics never cross cores
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t items = xShape.GetDim(0) * groups;
    uint32_t blockDim = platform.GetCoreNumAiv();
    if (items < blockDim) {
        blockDim = items;
    }
    context->SetBlockDim(blockDim == 0 ? 1 : blockDim);

    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}

} // namespace optiling

namespace ops {
ge::graphStatus Upconv3dReluGnTilingEntry(gert::TilingContext *context)
{
    return optiling::Upconv3dReluGnTilingFunc(context);
}
}
