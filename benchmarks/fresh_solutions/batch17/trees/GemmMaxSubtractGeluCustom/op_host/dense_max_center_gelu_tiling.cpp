#include "dense_max_center_gelu_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t EPILOGUE_CHUNK = 4096;
inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

matmul_tiling::DataType ToMmType(ge::DataType dt)
{
    return dt == ge::DT_FLOAT16 ? matmul_tiling::DataType::DT_FLOAT16 : matmul_tiling::DataType::DT_FLOAT;
}
}  // namespace

ge::graphStatus DenseMaxCenterGeluTilingFunc(gert::TilingContext *context)
{
    DenseMaxCenterGeluTiling tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aivNum = platform.GetCoreNumAiv();
    uint32_t aicNum = platform.GetCoreNumAic();

    const auto &xs = context->GetInputShape(0)->GetStorageShape();
    const auto &ws = context->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 2 || ws.GetDimNum() != 2 || xs.GetDim(1) != ws.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    uint32_t M = xs.GetDim(0);
    uint32_t K = xs.GetDim(1);
    uint32_t N = ws.GetDim(0);

    int64_t dim = 1;
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    if (attrs != nullptr && attrs->GetAttrPointer<int64_t>(0) != nullptr) {
        dim = *attrs->GetAttrPointer<int64_t>(0);
    }
    if (dim < 0) {
        dim += 2;
    }
    if (dim != 0 && dim != 1) {
        return ge::GRAPH_FAILED;
    }

    // ---- cube part: C(M,N) = x(M,K) * W(N,K)^T + bias, fp32 result in workspace
    auto dt = ToMmType(context->GetInputDesc(0)->GetDataType());
    matmul_tiling::MultiCoreMatmulTiling mmT(platform);
    mmT.SetDim(aivNum);
    mmT.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt, false);
    mmT.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt, true);
    mmT.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmT.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt);
    mmT.SetShape(M, N, K);
    mmT.SetOrgShape(M, N, K);
    mmT.SetBias(true);
    mmT.SetBufferSpace(-1, -1, -1);
    if (mmT.GetTiling(tiling.mm) == -1) {
        return ge::GRAPH_FAILED;
    }

    // ---- vector epilogue split
    uint32_t rowsPerCore = CeilDiv(M, aivNum);
    uint32_t colsPerCore = CeilDiv(CeilDiv(N, aivNum), 8) * 8;

    tiling.set_m(M);
    tiling.set_n(N);
    tiling.set_k(K);
    tiling.set_reduceDim(static_cast<uint32_t>(dim));
    tiling.set_vecCores(aivNum);
    tiling.set_rowsPerCore(rowsPerCore);
    tiling.set_colsPerCore(colsPerCore);
    tiling.set_chunk(EPILOGUE_CHUNK);

    // mixed kernel: one block = 1 AIC + 2 AIV
    context->SetBlockDim(aicNum);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    size_t *wsz = context->GetWorkspaceSizes(1);
    size_t user = static_cast<size_t>(M) * N * sizeof(float)     // GEMM result
                + (static_cast<size_t>(N) + 64) * sizeof(float);  // column maxima (reduceDim == 0)
    wsz[0] = platform.GetLibApiWorkSpaceSize() + user;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
