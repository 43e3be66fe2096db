#include "linear_gelu_row_softmax_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// UB budget for the softmax stage: 3 fp32 buffers of `chunk` elements + scratch
static constexpr uint32_t SOFTMAX_CHUNK = 12288;

ge::graphStatus LinearGeluRowSoftmaxTiling(gert::TilingContext *context)
{
    auto ascend = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    auto xShape = context->GetInputShape(0)->GetStorageShape();
    auto wShape = context->GetInputShape(1)->GetStorageShape();
    uint32_t M = xShape.GetDim(0);
    uint32_t K = xShape.GetDim(1);
    uint32_t N = wShape.GetDim(0);
    if (wShape.GetDim(1) != K) {
        return ge::GRAPH_FAILED;
    }

    // softmax runs along the row, so every core owns whole rows: split M only
    uint32_t cores = ascend.GetCoreNumAic();
    uint32_t rowsPerCore = (M + cores - 1) / cores;
    uint32_t used = (M + rowsPerCore - 1) / rowsPerCore;

    LinearGeluRowSoftmaxTilingData tiling;
    matmul_tiling::MultiCoreMatmulTiling mt(ascend);
    mt.SetDim(used);
    mt.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    mt.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetShape(M, N, K);
    mt.SetOrgShape(M, N, K);
    mt.SetSingleShape(rowsPerCore, N, K);
    mt.SetBias(true);
    mt.SetBufferSpace(-1, -1, -1);
    if (mt.GetTiling(tiling.cubeTiling) == -1) {
        return ge::GRAPH_FAILED;
    }

    uint32_t chunk = N <= SOFTMAX_CHUNK ? N : SOFTMAX_CHUNK;
    chunk = (chunk + 7) / 8 * 8;
    tiling.set_m(M);
    tiling.set_n(N);
    tiling.set_k(K);
    tiling.set_rowsPerCore(rowsPerCore);
    tiling.set_chunk(chunk);
    tiling.set_rowFits(N <= SOFTMAX_CHUNK ? 1 : 0);

    context->SetBlockDim(used);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *workspace = context->GetWorkspaceSizes(1);
    workspace[0] = ascend.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
