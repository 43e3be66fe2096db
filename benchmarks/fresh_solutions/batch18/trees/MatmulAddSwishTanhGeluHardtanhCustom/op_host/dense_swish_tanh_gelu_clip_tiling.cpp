#include "dense_swish_tanh_gelu_clip_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

using namespace matmul_tiling;

namespace optiling {
static constexpr uint32_t EPI_COLS_MAX = 4096;

ge::graphStatus DenseSwishTanhGeluClipTilingFunc(gert::TilingContext *ctx)
{
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    const gert::Shape &xs = ctx->GetInputShape(0)->GetStorageShape();  // (M, K)
    const gert::Shape &ws = ctx->GetInputShape(1)->GetStorageShape();  // (N, K) - Linear layout
    if (xs.GetDimNum() != 2 || ws.GetDimNum() != 2 || xs.GetDim(1) != ws.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    int32_t m = static_cast<int32_t>(xs.GetDim(0));
    int32_t k = static_cast<int32_t>(xs.GetDim(1));
    int32_t n = static_cast<int32_t>(ws.GetDim(0));

    const auto *attrs = ctx->GetAttrs();
    const float *lo = attrs->GetAttrPointer<float>(0);
    const float *hi = attrs->GetAttrPointer<float>(1);

    DenseSwishTanhGeluClipTiling td;
    MultiCoreMatmulTiling mmTiling(plat);
    uint32_t aicNum = plat.GetCoreNumAic();
    mmTiling.SetDim(aicNum);
    mmTiling.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    mmTiling.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    mmTiling.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetBiasType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetShape(m, n, k);
    mmTiling.SetOrgShape(m, n, k);
    mmTiling.SetBias(true);
    mmTiling.SetBufferSpace(-1, -1, -1);
    if (mmTiling.GetTiling(td.mm) == -1) {
        return ge::GRAPH_FAILED;
    }

    uint32_t singleN = static_cast<uint32_t>(td.mm.get_singleCoreN());
    uint32_t epi = singleN < EPI_COLS_MAX ? singleN : EPI_COLS_MAX;
    epi = (epi + 7) / 8 * 8;

    td.set_rows(m);
    td.set_cols(n);
    td.set_depth(k);
    td.set_epiCols(epi);
    td.set_clipLow(lo == nullptr ? -1.0f : *lo);
    td.set_clipHigh(hi == nullptr ? 1.0f : *hi);

    ctx->SetBlockDim(td.mm.get_usedCoreNum());
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());

    size_t *wsSizes = ctx->GetWorkspaceSizes(1);
    wsSizes[0] = static_cast<size_t>(plat.GetLibApiWorkSpaceSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
