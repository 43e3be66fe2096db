/*
 * Tiling of DenseRowNormResidualGate.
 * Stage 1 is a cube matmul (x @ weight^T + bias) whose float result lands in the workspace;
 * its multi-core split comes from MultiCoreMatmulTiling. Stage 2 splits rows across vector cores.
 */
#include "dense_row_norm_residual_gate_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus DenseRowNormResidualGateTilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aicNum = plat.GetCoreNumAic();
    uint32_t aivNum = plat.GetCoreNumAiv();

    const auto &xShape = context->GetInputShape(0)->GetStorageShape();   // [M, K]
    const auto &wShape = context->GetInputShape(1)->GetStorageShape();   // [N, K]
    if (xShape.GetDimNum() != 2 || wShape.GetDimNum() != 2 || xShape.GetDim(1) != wShape.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    int32_t m = static_cast<int32_t>(xShape.GetDim(0));
    int32_t k = static_cast<int32_t>(xShape.GetDim(1));
    int32_t n = static_cast<int32_t>(wShape.GetDim(0));

    ge::DataType dtype = context->GetInputDesc(0)->GetDataType();
    auto mmType = (dtype == ge::DT_FLOAT16) ? matmul_tiling::DataType::DT_FLOAT16 : matmul_tiling::DataType::DT_FLOAT;

    DenseRowNormResidualGateTilingData td;
    matmul_tiling::MultiCoreMatmulTiling mm(plat);
    mm.SetDim(aivNum);
    mm.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, mmType, false);
    mm.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, mmType, true);
    mm.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, mmType);
    mm.SetShape(m, n, k);
    mm.SetOrgShape(m, n, k);
    mm.SetBias(true);
    mm.SetBufferSpace(-1, -1, -1);
    if (mm.GetTiling(td.mmTiling) == -1) {
        return ge::GRAPH_FAILED;
    }

    const float *eps = context->GetAttrs()->GetAttrPointer<float>(0);
    uint32_t vecCores = static_cast<uint32_t>(m) < aivNum ? static_cast<uint32_t>(m) : aivNum;
    td.set_rows(m);
    td.set_cols(n);
    td.set_vecCoreNum(vecCores);
    td.set_rowsPerCore(m / vecCores);
    td.set_rowsTail(m % vecCores);
    uint32_t colTile = 4096;
    uint32_t colAligned = (static_cast<uint32_t>(n) + 63) / 64 * 64;
    td.set_colTile(colAligned < colTile ? colAligned : colTile);
    td.set_eps(eps == nullptr ? 1e-5f : *eps);
    td.set_invCols(1.0f / static_cast<float>(n));

    context->SetBlockDim(plat.CalcTschBlockDim(aivNum, aicNum, aivNum));
    context->SetTilingKey(dtype == ge::DT_FLOAT16 ? 1 : 0);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize() + static_cast<size_t>(m) * n * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
