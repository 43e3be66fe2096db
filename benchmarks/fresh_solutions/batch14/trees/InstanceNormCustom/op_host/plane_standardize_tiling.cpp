#include "plane_standardize_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus PlaneStandardizeTilingFunc(gert::TilingContext *ctx)
{
    const gert::Shape &shape = ctx->GetInputShape(0)->GetStorageShape();
    if (shape.GetDimNum() < 3) {
        return ge::GRAPH_FAILED;
    }
    uint64_t planeSize = 1;
    for (size_t i = 2; i < shape.GetDimNum(); ++i) {
        planeSize *= shape.GetDim(i);
    }
    const uint32_t planes = shape.GetDim(0) * shape.GetDim(1);
    const bool isHalf = ctx->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16;

    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    // per element: 2 in + 2 out buffers of T, 3 fp32 work buffers (value, sum, square)
    const uint32_t bytesPerElem = (isHalf ? 2u : 4u) * 4 + 4 * 3;
    uint64_t chunk = (ub - 8 * 1024) / bytesPerElem;
    chunk = chunk / 64 * 64;
    const uint64_t planeAligned = (planeSize + 63) / 64 * 64;
    if (chunk > planeAligned) {
        chunk = planeAligned;
    }

    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > planes) cores = planes;
    if (cores == 0) cores = 1;

    PlaneStandardizeTilingData td;
    td.set_planeCount(planes);
    td.set_planeSize(static_cast<uint32_t>(planeSize));
    td.set_chunk(static_cast<uint32_t>(chunk));
    td.set_planesPerCore(planes / cores);
    td.set_extraPlanes(planes % cores);
    td.set_epsilon(*ctx->GetAttrs()->GetAttrPointer<float>(0));

    ctx->SetBlockDim(cores);
    ctx->SetTilingKey(isHalf ? 2 : 1);
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());
    ctx->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
