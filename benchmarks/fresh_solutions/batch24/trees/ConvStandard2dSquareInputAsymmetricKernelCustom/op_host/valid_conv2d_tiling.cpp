#include "valid_conv2d_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// accumulator budget (fp32) for one job
static constexpr uint32_t kAccBudget = 64 * 1024;

ge::graphStatus ValidConv2dTilingFunc(gert::TilingContext *ctx)
{
    auto xs = ctx->GetInputShape(0)->GetStorageShape();
    auto ws = ctx->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 4 || ws.GetDimNum() != 4 || xs.GetDim(1) != ws.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    const int64_t *strideH = ctx->GetAttrs()->GetInt(0);
    uint32_t sh = (strideH == nullptr || *strideH <= 0) ? 1U : static_cast<uint32_t>(*strideH);

    ValidConv2dTilingData td;
    uint32_t h = xs.GetDim(2), w = xs.GetDim(3), kh = ws.GetDim(2), kw = ws.GetDim(3);
    if (kh > h || kw > w) {
        return ge::GRAPH_FAILED;
    }
    uint32_t oh = (h - kh) / sh + 1;
    uint32_t ow = w - kw + 1;
    uint32_t rowCap = (ow + 63) / 64 * 64;
    uint32_t oc = ws.GetDim(0);
    uint32_t chanTile = kAccBudget / (rowCap * 4);
    chanTile = chanTile == 0 ? 1 : (chanTile > oc ? oc : chanTile);
    uint32_t chanTiles = (oc + chanTile - 1) / chanTile;

    td.set_batch(xs.GetDim(0));
    td.set_inC(xs.GetDim(1));
    td.set_inH(h);
    td.set_inW(w);
    td.set_outC(oc);
    td.set_kH(kh);
    td.set_kW(kw);
    td.set_strideH(sh);
    td.set_outH(oh);
    td.set_outW(ow);
    td.set_rowCap(rowCap);
    td.set_chanTile(chanTile);
    td.set_chanTiles(chanTiles);
    td.set_withBias(ctx->GetOptionalInputShape(2) == nullptr ? 0 : 1);

    uint32_t jobs = static_cast<uint32_t>(xs.GetDim(0)) * chanTiles * oh;
    uint32_t cores = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo()).GetCoreNumAiv();
    cores = cores ? cores : 1;
    uint32_t per = (jobs + cores - 1) / cores;
    td.set_jobs(jobs);
    td.set_jobsPerCore(per);

    ctx->SetBlockDim((jobs + per - 1) / per);
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());
    ctx->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
