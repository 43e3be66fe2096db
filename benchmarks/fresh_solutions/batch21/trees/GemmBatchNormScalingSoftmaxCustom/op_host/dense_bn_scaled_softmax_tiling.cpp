#include "dense_bn_scaled_softmax_tiling.h"
#include "tiling/platform/platform_ascendc.h"

using namespace matmul_tiling;

namespace optiling {
static inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

ge::graphStatus DenseBnScaledSoftmaxTilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape &xShape = context->GetInputShape(0)->GetStorageShape();   // (M, K)
    const gert::Shape &wShape = context->GetInputShape(1)->GetStorageShape();   // (N, K)
    if (xShape.GetDimNum() != 2 || wShape.GetDimNum() != 2 || xShape.GetDim(1) != wShape.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    uint32_t m = xShape.GetDim(0);
    uint32_t k = xShape.GetDim(1);
    uint32_t n = wShape.GetDim(0);
    float eps = *context->GetAttrs()->GetAttrPointer<float>(0);
    uint32_t scaleLen = context->GetInputShape(5)->GetStorageShape().GetShapeSize();
    if (scaleLen != 1 && scaleLen != n) {
        return ge::GRAPH_FAILED;
    }

    uint32_t aic = plat.GetCoreNumAic();
    uint32_t aiv = plat.GetCoreNumAiv();

    DenseBnScaledSoftmaxTilingData td;
    // ---- cube stage: y_raw = x * W^T + b, one matmul slice per AIV issuer
    MultiCoreMatmulTiling mm(plat);
    mm.SetDim(aiv);
    mm.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, false);
    mm.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, true);
    mm.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    mm.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    mm.SetShape(m, n, k);
    mm.SetOrgShape(m, n, k);
    mm.SetBias(true);
    mm.SetBufferSpace(-1, -1, -1);
    if (mm.GetTiling(td.mmTiling) == -1) {
        return ge::GRAPH_FAILED;
    }

    // ---- vector stages
    uint32_t statCols = CeilDiv(CeilDiv(n, aiv), 8) * 8;         // 32B aligned column slices
    statCols = statCols > 2048 ? 2048 : statCols;
    uint32_t statCores = CeilDiv(n, statCols);
    uint32_t statRowTile = (32 * 1024) / (statCols * sizeof(float));
    statRowTile = statRowTile == 0 ? 1 : statRowTile;
    statRowTile = statRowTile > m ? m : statRowTile;
    uint32_t softRows = CeilDiv(m, aiv);
    uint32_t colTile = n < 2048 ? CeilDiv(n, 8) * 8 : 2048;
    uint32_t vecCores = aiv;
    (void)statCores;

    td.set_rows(m);
    td.set_cols(n);
    td.set_depth(k);
    td.set_vecCores(vecCores);
    td.set_statCols(statCols);
    td.set_statRowTile(statRowTile);
    td.set_softRows(softRows);
    td.set_colTile(colTile);
    td.set_scaleLen(scaleLen);
    td.set_eps(eps);

    context->SetBlockDim(aic);   // MIX 1:2 launch, aic cube + 2*aic vector cores
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    // system workspace + folded per-column affine (a, b)
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize() + 2 * static_cast<size_t>(n) * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
