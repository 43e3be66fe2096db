// Tiling for BilinearGridWarp (bilinear sampling of an NCHW image at grid locations).
#include "bilinear_grid_warp_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t MAX_TILE_W = 512;
constexpr uint32_t LANE = 64;                 // fp32 elements per 256B repeat
constexpr uint32_t F32_SLOTS_PER_COL = 40;    // fp32-sized scratch slots per output column (see kernel)
constexpr uint64_t RESERVE = 16 * 1024;
}

ge::graphStatus BilinearGridWarpTilingFunc(gert::TilingContext* context)
{
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& gs = context->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 4 || gs.GetDimNum() != 4 || gs.GetDim(3) != 2 || gs.GetDim(0) != xs.GetDim(0)) {
        return ge::GRAPH_FAILED;
    }
    bool alignCorners = false;
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    if (attrs != nullptr && attrs->GetAttrPointer<bool>(0) != nullptr) {
        alignCorners = *attrs->GetAttrPointer<bool>(0);
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    const uint32_t coreNum = plat.GetCoreNumAiv();

    const uint32_t outW = static_cast<uint32_t>(gs.GetDim(2));
    uint32_t tileW = (outW + LANE - 1) / LANE * LANE;
    if (tileW > MAX_TILE_W) {
        tileW = MAX_TILE_W;
    }
    const uint64_t scratch = static_cast<uint64_t>(tileW) * F32_SLOTS_PER_COL * sizeof(float);
    if (ub < scratch + RESERVE) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t elemBytes = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    uint32_t bandElems = static_cast<uint32_t>((ub - scratch - RESERVE) / elemBytes);
    bandElems = bandElems / 16 * 16;

    const uint32_t lines = static_cast<uint32_t>(gs.GetDim(0) * gs.GetDim(1));
    const uint32_t used = lines < coreNum ? (lines == 0 ? 1 : lines) : coreNum;

    BilinearGridWarpTilingData t;
    t.set_batch(xs.GetDim(0));
    t.set_channels(xs.GetDim(1));
    t.set_inH(xs.GetDim(2));
    t.set_inW(xs.GetDim(3));
    t.set_outH(gs.GetDim(1));
    t.set_outW(outW);
    t.set_alignCorners(alignCorners ? 1 : 0);
    t.set_tileW(tileW);
    t.set_bandElems(bandElems);
    t.set_linesPerCore(lines / used);
    t.set_linesRem(lines % used);

    context->SetBlockDim(used);
    context->SetTilingKey(elemBytes == 2 ? 1 : 0);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
