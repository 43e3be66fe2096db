#include "dense_unit_bn_relu_conv_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus DenseUnitTiling(gert::TilingContext *ctx)
{
    auto xs = ctx->GetInputShape(0)->GetStorageShape();   // (N, C, H, W)
    auto ws = ctx->GetInputShape(5)->GetStorageShape();   // (G, C, K, K)
    if (xs.GetDimNum() != 4 || ws.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = xs.GetDim(0), c = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t g = ws.GetDim(0), k = ws.GetDim(2);
    if (ws.GetDim(1) != c || ws.GetDim(3) != k || (k % 2) == 0) {
        return ge::GRAPH_FAILED;   // only odd square kernels with "same" padding
    }
    const float *eps = ctx->GetAttrs()->GetAttrPointer<float>(0);

    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t cores = plat.GetCoreNumAiv();

    uint32_t wAlign = (w + 1 + 7) / 8 * 8;            // +1 zero slot used by the border taps
    // UB: 2 input rows, 1 normalised row, gather row, G accumulators, 2 out rows,
    // one channel's weights, 4 bn vectors of C, offsets (k rows)
    uint64_t need = (2ull * wAlign + 2ull * wAlign + (uint64_t)g * wAlign + 2ull * wAlign +
                     (uint64_t)g * k * k + 8 + 6ull * ((c + 7) / 8 * 8)) * 4 + (uint64_t)k * wAlign * 4;
    if (need + 4096 > ub) {
        return ge::GRAPH_FAILED;
    }

    uint32_t totalRows = n * h;
    uint32_t per = (totalRows + cores - 1) / cores;
    uint32_t used = (totalRows + per - 1) / per;

    DenseUnitTilingData td;
    td.set_n(n);
    td.set_c(c);
    td.set_g(g);
    td.set_h(h);
    td.set_w(w);
    td.set_k(k);
    td.set_wAlign(wAlign);
    td.set_rowsPerCore(per);
    td.set_totalRows(totalRows);
    td.set_eps(eps == nullptr ? 1e-5f : *eps);
    ctx->SetBlockDim(used);
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());
    ctx->GetWorkspaceSizes(1)[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
