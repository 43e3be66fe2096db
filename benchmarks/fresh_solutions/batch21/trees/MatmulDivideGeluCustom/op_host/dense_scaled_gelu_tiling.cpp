/*
 * DenseScaledGelu tiling. The GEMM result is consumed block by block in UB (baseM x baseN),
 * so base sizes are fixed to keep one float block plus the epilogue scratch inside UB.
 */
#include "dense_scaled_gelu_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr int32_t BASE_M = 64;
constexpr int32_t BASE_N = 128;

ge::graphStatus DenseScaledGeluTilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    auto xShape = context->GetInputShape(0)->GetStorageShape();   // [M, K]
    auto wShape = context->GetInputShape(1)->GetStorageShape();   // [N, K]
    if (xShape.GetDimNum() != 2 || wShape.GetDimNum() != 2 || xShape.GetDim(1) != wShape.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    const int32_t M = xShape.GetDim(0);
    const int32_t K = xShape.GetDim(1);
    const int32_t N = wShape.GetDim(0);

    const float *divisor = context->GetAttrs()->GetAttrPointer<float>(0);
    float div = (divisor == nullptr) ? 1.0f : *divisor;
    if (div == 0.0f) {
        return ge::GRAPH_FAILED;
    }

    const bool isHalf = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16;
    const auto inType = isHalf ? matmul_tiling::DataType::DT_FLOAT16 : matmul_tiling::DataType::DT_FLOAT;

    DenseScaledGeluTilingData tiling;
    matmul_tiling::MultiCoreMatmulTiling api(plat);
    api.SetDim(plat.GetCoreNumAiv());
    api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, inType, false);
    api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, inType, true);
    api.SetCType(matmul_tiling::TPosition::VECIN, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    api.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, inType);
    api.SetShape(M, N, K);
    api.SetOrgShape(M, N, K);
    api.SetBias(true);
    api.SetFixSplit(BASE_M, BASE_N, -1);
    api.SetBufferSpace(-1, -1, -1);
    if (api.GetTiling(tiling.mm) == -1) {
        return ge::GRAPH_FAILED;
    }

    tiling.set_invDivisor(1.0f / div);
    tiling.set_erfTmpBytes(BASE_M * BASE_N * sizeof(float) * 3);

    context->SetBlockDim(plat.CalcTschBlockDim(plat.GetCoreNumAiv(), plat.GetCoreNumAic(), plat.GetCoreNumAiv()));
    context->SetTilingKey(isHalf ? 1 : 0);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
