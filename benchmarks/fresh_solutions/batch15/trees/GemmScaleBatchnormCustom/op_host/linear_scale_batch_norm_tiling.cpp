#include "linear_scale_batch_norm_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus LinearScaleBatchNormTilingFunc(gert::TilingContext *context)
{
    auto xShape = context->GetInputShape(0)->GetStorageShape();
    auto wShape = context->GetInputShape(1)->GetStorageShape();
    if (xShape.GetDimNum() != 2 || wShape.GetDimNum() != 2 || xShape.GetDim(1) != wShape.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    uint32_t M = xShape.GetDim(0);
    uint32_t K = xShape.GetDim(1);
    uint32_t N = wShape.GetDim(0);
    float eps = *context->GetAttrs()->GetAttrPointer<float>(0);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aic = plat.GetCoreNumAic();

    // Batch statistics need every row of a feature, so the split is along N only.
    // Column blocks are multiples of 16 features (64 B of fp32) to keep DMA rows aligned.
    uint32_t colBlock = (N + aic - 1) / aic;
    colBlock = (colBlock + 15) / 16 * 16;
    if (colBlock > 512) colBlock = 512;
    uint32_t blocks = (N + colBlock - 1) / colBlock;
    uint32_t blockDim = blocks < aic ? blocks : aic;

    // epilogue UB: 2 input chunks + 2 output chunks of rowChunk x colBlock, 6 vectors of colBlock
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t rowChunk = 64;
    while (rowChunk > 1 && (4ULL * rowChunk * colBlock + 6ULL * colBlock) * sizeof(float) + 4096 > ub) {
        rowChunk >>= 1;
    }
    if (rowChunk > M) rowChunk = M;

    matmul_tiling::MatmulApiTiling gemmTiling(plat);
    gemmTiling.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                        matmul_tiling::DataType::DT_FLOAT);
    gemmTiling.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                        matmul_tiling::DataType::DT_FLOAT, true);
    gemmTiling.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                        matmul_tiling::DataType::DT_FLOAT);
    gemmTiling.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                           matmul_tiling::DataType::DT_FLOAT);
    gemmTiling.SetOrgShape(M, N, K);
    gemmTiling.SetShape(M, colBlock, K);
    gemmTiling.SetBias(true);
    gemmTiling.SetBufferSpace(-1, -1, -1);

    LinearScaleBatchNormTilingData tiling;
    if (gemmTiling.GetTiling(tiling.gemm) == -1) {
        return ge::GRAPH_FAILED;
    }
    tiling.set_rows(M);
    tiling.set_cols(N);
    tiling.set_depth(K);
    tiling.set_colBlock(colBlock);
    tiling.set_rowChunk(rowChunk);
    tiling.set_epsilon(eps);

    context->SetBlockDim(blockDim);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *workspaces = context->GetWorkspaceSizes(1);
    workspaces[0] = plat.GetLibApiWorkSpaceSize() + static_cast<size_t>(M) * N * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}
