#include "linear_scaled_batch_norm_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t COL_CHUNK = 64;    // 256B of fp32 per row segment
constexpr uint32_t ALIGN_ELEMS = 8;   // 32B / sizeof(float)

inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
}

ge::graphStatus LinearScaledBatchNormTiling(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t aicNum = plat.GetCoreNumAic();
    const uint32_t aivNum = plat.GetCoreNumAiv();

    const gert::StorageShape *xShape = context->GetInputShape(0);
    const gert::StorageShape *wShape = context->GetInputShape(1);
    const gert::Shape &xs = xShape->GetStorageShape();
    const gert::Shape &ws = wShape->GetStorageShape();
    if (xs.GetDimNum() != 2 || ws.GetDimNum() != 2 || xs.GetDim(1) != ws.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t M = static_cast<uint32_t>(xs.GetDim(0));
    const uint32_t K = static_cast<uint32_t>(xs.GetDim(1));
    const uint32_t N = static_cast<uint32_t>(ws.GetDim(0));

    float eps = 1e-5f;
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    if (attrs != nullptr && attrs->GetAttrPointer<float>(0) != nullptr) {
        eps = *attrs->GetAttrPointer<float>(0);
    }

    LinearScaledBatchNormTilingData tiling;
    // ---- cube part: y = x * W^T + bias, W stored as [N, K] ----
    matmul_tiling::MultiCoreMatmulTiling mm(plat);
    mm.SetDim(aivNum);
    mm.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    mm.SetCType(matmul_tiling::TPosition::VECIN, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetShape(M, N, K);
    mm.SetOrgShape(M, N, K);
    mm.SetBias(true);
    mm.SetFixSplit(128, 128, -1);
    mm.SetBufferSpace(-1, -1, -1);
    if (mm.GetTiling(tiling.mmTiling) == -1) {
        return ge::GRAPH_FAILED;
    }

    // ---- vector part: column statistics ----
    uint32_t colsPerCore = CeilDiv(CeilDiv(N, aivNum), ALIGN_ELEMS) * ALIGN_ELEMS;
    uint32_t vecCores = CeilDiv(N, colsPerCore);
    uint32_t colChunk = colsPerCore < COL_CHUNK ? colsPerCore : COL_CHUNK;
    // UB budget: 2x tile (double buffered in) + 1x tile out + a handful of colChunk vectors
    uint64_t ubSize = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint64_t usable = ubSize - 8 * colChunk * sizeof(float) - 16 * 1024;
    uint32_t rowChunk = static_cast<uint32_t>(usable / (4ULL * colChunk * sizeof(float)));
    if (rowChunk > 256) rowChunk = 256;
    if (rowChunk > M) rowChunk = M;
    if (rowChunk == 0) rowChunk = 1;

    tiling.set_rows(M);
    tiling.set_inFeatures(K);
    tiling.set_outFeatures(N);
    tiling.set_vecCoreNum(vecCores);
    tiling.set_colsPerCore(colsPerCore);
    tiling.set_colChunk(colChunk);
    tiling.set_rowChunk(rowChunk);
    tiling.set_eps(eps);

    // the kernel runs in mixed mode: one cube core drives two vector cores
    context->SetBlockDim(aicNum);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    size_t *ws0 = context->GetWorkspaceSizes(1);
    ws0[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
