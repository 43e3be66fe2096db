/**
 * @file linear_scaled_gelu_tiling.cpp
 * @brief Host tiling for LinearScaledGelu.
 *
 * The GEMM part (x[M,K] @ weight[N,K]^T + bias) is tiled by the Matmul high-level API over
 * all AI Vector cores of the mixed launch; each AIV then applies the scale + GELU epilogue
 * to exactly the output tile its matmul produced, so no inter-core synchronisation is needed.
 */
#include <cmath>
#include "linear_scaled_gelu_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t EPI_TILE_LEN = 2048;   // 8 KB per buffer; 2 in + 2 out + 4 scratch buffers
}

ge::graphStatus LinearScaledGeluTilingFunc(gert::TilingContext* context)
{
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();   // [M, K]
    const gert::Shape& ws = context->GetInputShape(1)->GetStorageShape();   // [N, K]
    if (xs.GetDimNum() < 2 || ws.GetDimNum() != 2) {
        return ge::GRAPH_FAILED;
    }
    const int64_t k = xs.GetDim(xs.GetDimNum() - 1);
    int64_t m = 1;
    for (size_t i = 0; i + 1 < xs.GetDimNum(); ++i) {
        m *= xs.GetDim(i);   // leading dims are flattened into rows
    }
    const int64_t n = ws.GetDim(0);
    if (ws.GetDim(1) != k || m <= 0 || n <= 0 || k <= 0) {
        return ge::GRAPH_FAILED;
    }
    const bool hasBias = context->GetOptionalInputShape(2) != nullptr;

    const float* divisor = context->GetAttrs()->GetAttrPointer<float>(0);
    if (divisor == nullptr || *divisor == 0.0f || !std::isfinite(*divisor)) {
        return ge::GRAPH_FAILED;
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    matmul_tiling::MultiCoreMatmulTiling mm(platform);
    mm.SetDim(platform.GetCoreNumAiv());
    mm.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    mm.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    mm.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetShape(static_cast<int32_t>(m), static_cast<int32_t>(n), static_cast<int32_t>(k));
    mm.SetOrgShape(static_cast<int32_t>(m), static_cast<int32_t>(n), static_cast<int32_t>(k));
    mm.SetBias(hasBias);
    mm.SetBufferSpace(-1, -1, -1);

    LinearScaledGeluTilingData td;
    if (mm.GetTiling(td.cubeTiling) == -1) {
        return ge::GRAPH_FAILED;
    }
    td.set_epiTileLen(EPI_TILE_LEN);
    td.set_hasBias(hasBias ? 1 : 0);
    td.set_invDivisor(static_cast<float>(1.0 / static_cast<double>(*divisor)));
    td.set_reserved(0);

    context->SetBlockDim(platform.GetCoreNumAic());
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
