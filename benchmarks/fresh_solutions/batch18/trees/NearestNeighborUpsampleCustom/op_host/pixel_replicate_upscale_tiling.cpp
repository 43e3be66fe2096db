#include <cmath>
#include "pixel_replicate_upscale_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static inline uint32_t RoundUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

ge::graphStatus PixelReplicateUpscaleTiling(gert::TilingContext *ctx)
{
    const gert::Shape &in = ctx->GetInputShape(0)->GetStorageShape();
    size_t rank = in.GetDimNum();
    if (rank < 3) {
        return ge::GRAPH_FAILED;
    }
    const auto *attrs = ctx->GetAttrs();
    float sh = *attrs->GetAttrPointer<float>(0);
    float sw = *attrs->GetAttrPointer<float>(1);
    if (sh <= 0.0f || sw <= 0.0f) {
        return ge::GRAPH_FAILED;
    }

    uint32_t h = static_cast<uint32_t>(in.GetDim(rank - 2));
    uint32_t w = static_cast<uint32_t>(in.GetDim(rank - 1));
    uint64_t planes = 1;
    for (size_t i = 0; i + 2 < rank; ++i) {
        planes *= static_cast<uint64_t>(in.GetDim(i));
    }
    uint32_t oh = static_cast<uint32_t>(std::floor(h * static_cast<double>(sh)));
    uint32_t ow = static_cast<uint32_t>(std::floor(w * static_cast<double>(sw)));

    uint32_t elemBytes = ge::GetSizeByDataType(ctx->GetInputDesc(0)->GetDataType());
    uint32_t alignElems = 32 / elemBytes;
    // UB: 2x input row, 2x output row, offset table (uint32 per output column)
    uint64_t need = 2ULL * RoundUp(w, alignElems) * elemBytes + 2ULL * RoundUp(ow, alignElems) * elemBytes +
                    RoundUp(ow, 8) * 4ULL;
    if (need > 180 * 1024) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint64_t rows = planes * oh;
    uint64_t per = (rows + cores - 1) / cores;
    uint32_t used = static_cast<uint32_t>((rows + per - 1) / per);

    PixelReplicateUpscaleTilingData td;
    td.set_inH(h);
    td.set_inW(w);
    td.set_outH(oh);
    td.set_outW(ow);
    td.set_invScaleH(1.0f / sh);
    td.set_invScaleW(1.0f / sw);
    td.set_outRows(rows);
    td.set_rowsPerCore(per);
    td.set_inWAlign(RoundUp(w, alignElems));
    td.set_outWAlign(RoundUp(ow, alignElems));

    ctx->SetBlockDim(used == 0 ? 1 : used);
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *ws = ctx->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
