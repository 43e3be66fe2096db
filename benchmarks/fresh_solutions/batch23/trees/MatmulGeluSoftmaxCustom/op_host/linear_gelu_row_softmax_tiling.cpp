#include "linear_gelu_row_softmax_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

namespace {
constexpr uint32_t ALIGN_ELEMS = 64;         // keep chunks 256B aligned for fp32
constexpr uint32_t MAX_CHUNK = 4096;         // elements of a softmax row kept in UB at once
constexpr uint32_t ERF_TMP_BYTES = 4 * MAX_CHUNK * sizeof(float);

inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
}  // namespace

ge::graphStatus LinearGeluRowSoftmaxTiling(gert::TilingContext *context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());

    const gert::Shape &xShape = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &wShape = context->GetInputShape(1)->GetStorageShape();
    if (xShape.GetDimNum() != 2 || wShape.GetDimNum() != 2) {
        return ge::GRAPH_FAILED;
    }
    uint32_t m = static_cast<uint32_t>(xShape.GetDim(0));
    uint32_t k = static_cast<uint32_t>(xShape.GetDim(1));
    uint32_t n = static_cast<uint32_t>(wShape.GetDim(0));
    if (static_cast<uint32_t>(wShape.GetDim(1)) != k || m == 0 || n == 0) {
        return ge::GRAPH_FAILED;
    }

    // Rows are distributed over the AI cores so that every softmax row lives on exactly one core.
    uint32_t coreNum = platform.GetCoreNumAic();
    if (coreNum == 0) {
        coreNum = 1;
    }
    uint32_t rowsPerCore = CeilDiv(m, coreNum);
    uint32_t usedCores = CeilDiv(m, rowsPerCore);

    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    matmul_tiling::DataType mmIn =
        (dt == ge::DT_FLOAT16) ? matmul_tiling::DataType::DT_FLOAT16 : matmul_tiling::DataType::DT_FLOAT;

    matmul_tiling::MatmulApiTiling mm(platform);
    mm.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, mmIn, false);
    mm.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, mmIn, true);   // weight is [N, K]
    mm.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetOrgShape(m, n, k);
    mm.SetShape(rowsPerCore, n, k);
    mm.SetBias(true);
    mm.SetBufferSpace(-1, -1, -1);

    LinearGeluRowSoftmaxTilingData tiling;
    if (mm.GetTiling(tiling.mmTiling) == -1) {
        return ge::GRAPH_FAILED;
    }

    uint32_t chunk = n < MAX_CHUNK ? n : MAX_CHUNK;
    chunk = CeilDiv(chunk, ALIGN_ELEMS) * ALIGN_ELEMS;

    tiling.set_rows(m);
    tiling.set_inFeatures(k);
    tiling.set_outFeatures(n);
    tiling.set_rowsPerCore(rowsPerCore);
    tiling.set_usedCores(usedCores);
    tiling.set_chunkLen(chunk);
    tiling.set_erfTmpBytes(ERF_TMP_BYTES);

    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    // user workspace: fp32 pre-activation matrix [M, N]; plus the library's system workspace
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = static_cast<size_t>(m) * n * sizeof(float) + platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}

}  // namespace optiling
