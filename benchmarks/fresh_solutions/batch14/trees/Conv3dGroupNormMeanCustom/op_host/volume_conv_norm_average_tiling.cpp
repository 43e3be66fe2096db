#include "volume_conv_norm_average_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus VolumeConvNormAverageTilingFunc(gert::TilingContext *context)
{
    auto xShape = context->GetInputShape(0)->GetStorageShape();  // N C D H W
    auto wShape = context->GetInputShape(1)->GetStorageShape();  // Co Ci KD KH KW
    if (xShape.GetDimNum() != 5 || wShape.GetDimNum() != 5) {
        return ge::GRAPH_FAILED;
    }
    VolumeConvNormAverageTiling tiling;
    tiling.set_n(xShape.GetDim(0));
    tiling.set_cin(xShape.GetDim(1));
    tiling.set_d(xShape.GetDim(2));
    tiling.set_h(xShape.GetDim(3));
    tiling.set_w(xShape.GetDim(4));
    tiling.set_cout(wShape.GetDim(0));
    tiling.set_kd(wShape.GetDim(2));
    tiling.set_kh(wShape.GetDim(3));
    tiling.set_kw(wShape.GetDim(4));
    const uint32_t od = xShape.GetDim(2) - wShape.GetDim(2) + 1;
    const uint32_t oh = xShape.GetDim(3) - wShape.GetDim(3) + 1;
    const uint32_t ow = xShape.GetDim(4) - wShape.GetDim(4) + 1;
    tiling.set_od(od);
    tiling.set_oh(oh);
    tiling.set_ow(ow);
    const uint32_t owAligned = (ow + 7) / 8 * 8;
    tiling.set_owAligned(owAligned);

    // UB: 2 window buffers + 1 accumulator + 1 square scratch of rowTile*owAligned floats
    const uint32_t ubFloats = (160 * 1024) / sizeof(float);
    uint32_t rowTile = ubFloats / (4 * owAligned);
    if (rowTile > oh) rowTile = oh;
    if (rowTile == 0) return ge::GRAPH_FAILED;
    tiling.set_rowTile(rowTile);

    const int64_t groups = *context->GetAttrs()->GetAttrPointer<int64_t>(0);
    const float eps = *context->GetAttrs()->GetAttrPointer<float>(1);
    if (groups <= 0 || wShape.GetDim(0) % groups != 0) return ge::GRAPH_FAILED;
    tiling.set_groups(static_cast<uint32_t>(groups));
    tiling.set_eps(eps);

    auto ascendc = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = ascendc.GetCoreNumAiv();
    uint32_t blocks = xShape.GetDim(0) < cores ? xShape.GetDim(0) : cores;
    context->SetBlockDim(blocks > 0 ? blocks : 1);

    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
