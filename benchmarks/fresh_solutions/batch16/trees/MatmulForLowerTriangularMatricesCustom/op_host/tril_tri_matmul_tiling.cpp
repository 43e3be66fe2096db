/*!
 * \file tril_tri_matmul_tiling.cpp
 * \brief host tiling of TrilTriMatmul
 *
 * C = tril(A @ B) with A, B lower triangular (n x n). The output is cut into blk x blk
 * blocks. Block (I, J) with J > I is identically zero. For J <= I only the k-range
 * [J*blk, (I+1)*blk) can contribute, because A[i,k] = 0 for k > i and B[k,j] = 0 for k < j.
 * The GEMM tiling is generated for the largest block (blk x blk x n); smaller k ranges are
 * set at run time with SetTail.
 */
#include "tril_tri_matmul_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static constexpr uint32_t kBlockSide = 256;

ge::graphStatus TrilTriMatmulTilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    auto aShape = context->GetInputShape(0)->GetStorageShape();
    auto bShape = context->GetInputShape(1)->GetStorageShape();
    if (aShape.GetDimNum() != 2 || aShape.GetDim(0) != aShape.GetDim(1) || aShape != bShape) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = static_cast<uint32_t>(aShape.GetDim(0));
    uint32_t blk = n < kBlockSide ? ((n + 15) / 16 * 16) : kBlockSide;

    auto dt = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? matmul_tiling::DataType::DT_FLOAT16
                                                                         : matmul_tiling::DataType::DT_FLOAT;
    matmul_tiling::MatmulApiTiling api(plat);
    api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt);
    api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt);
    api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt);
    api.SetShape(blk, blk, n);
    api.SetOrgShape(n, n, n);
    api.SetBias(false);
    api.SetBufferSpace(-1, -1, -1);

    TrilTriMatmulTilingData tiling;
    if (api.GetTiling(tiling.mm) == -1) {
        return ge::GRAPH_FAILED;
    }
    uint32_t aic = plat.GetCoreNumAic();
    tiling.set_n(n);
    tiling.set_blk(blk);
    tiling.set_blkNum((n + blk - 1) / blk);
    tiling.set_workerNum(aic * 2);      // two vector cores drive each cube core

    context->SetBlockDim(aic);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
