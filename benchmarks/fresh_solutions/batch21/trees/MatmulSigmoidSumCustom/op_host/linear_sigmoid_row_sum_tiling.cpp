#include "linear_sigmoid_row_sum_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus LinearSigmoidRowSumTiling(gert::TilingContext *context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    auto xs = context->GetInputShape(0)->GetStorageShape();
    auto ws = context->GetInputShape(1)->GetStorageShape();
    int32_t m = xs.GetDim(0);
    int32_t k = xs.GetDim(1);
    int32_t n = ws.GetDim(0);
    if (ws.GetDim(1) != k) {
        return ge::GRAPH_FAILED;
    }
    matmul_tiling::DataType fp32 = matmul_tiling::DataType::DT_FLOAT;
    uint32_t aiv = platform.GetCoreNumAiv();

    matmul_tiling::MultiCoreMatmulTiling api(platform);
    api.SetDim(aiv);
    api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, fp32);
    api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, fp32, true);
    // C tiles are handed to the vector unit (VECIN) for the sigmoid + row reduction
    api.SetCType(matmul_tiling::TPosition::VECIN, matmul_tiling::CubeFormat::ND, fp32);
    api.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, fp32);
    api.SetShape(m, n, k);
    api.SetOrgShape(m, n, k);
    api.SetBias(true);
    api.SetFixSplit(128, 128, -1);      // 128x128 C tiles: 64 KB in UB
    api.SetBufferSpace(-1, -1, -1);

    LinearSigmoidRowSumTilingData data;
    if (api.GetTiling(data.gemm) == -1) {
        return ge::GRAPH_FAILED;
    }
    data.set_m(m);
    data.set_n(n);
    data.set_k(k);

    context->SetBlockDim(platform.GetCoreNumAic());
    data.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(data.GetDataSize());
    size_t *wsz = context->GetWorkspaceSizes(1);
    wsz[0] = platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}
