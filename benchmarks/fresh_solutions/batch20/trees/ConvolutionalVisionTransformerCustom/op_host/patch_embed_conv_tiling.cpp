#include "patch_embed_conv_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus PatchEmbedConvTilingFunc(gert::TilingContext *ctx)
{
    const gert::Shape &x = ctx->GetInputShape(0)->GetStorageShape();   // [B, C, H, W]
    const gert::Shape &w = ctx->GetInputShape(1)->GetStorageShape();   // [E, C, P, P]
    if (x.GetDimNum() != 4 || w.GetDimNum() != 4 || w.GetDim(2) != w.GetDim(3) || w.GetDim(1) != x.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    uint32_t b = x.GetDim(0), c = x.GetDim(1), h = x.GetDim(2), wd = x.GetDim(3);
    uint32_t e = w.GetDim(0), p = w.GetDim(2);
    uint32_t gh = h / p, gw = wd / p;
    if (gh == 0 || gw == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rowPitch = (wd + 15) / 16 * 16;
    uint32_t colPitch = (gw + 15) / 16 * 16;

    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t esz = ctx->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    uint64_t taps = 1ULL * c * p * p;
    // staged strip (raw + fp32), im2col columns + offsets, all weights + bias in fp32, output rows
    uint64_t need = taps / p * rowPitch * (esz + 4ULL) + taps * colPitch * 8ULL +
                    (taps * e + e) * (esz + 4ULL) + 2ULL * colPitch * (esz + 4) + 4096;
    if (need > ub) {
        return ge::GRAPH_FAILED;
    }

    PatchEmbedConvTilingData td;
    td.set_batch(b);
    td.set_channels(c);
    td.set_height(h);
    td.set_width(wd);
    td.set_embedDim(e);
    td.set_patch(p);
    td.set_gridH(gh);
    td.set_gridW(gw);
    td.set_rowPitch(rowPitch);
    td.set_colPitch(colPitch);
    td.set_units(b * gh);

    uint32_t cores = plat.GetCoreNumAiv();
    ctx->SetBlockDim(b * gh < cores ? b * gh : cores);
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());
    ctx->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
