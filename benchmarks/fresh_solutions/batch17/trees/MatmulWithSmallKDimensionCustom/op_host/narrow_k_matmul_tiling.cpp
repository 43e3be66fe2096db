// Host tiling for NarrowKMatmul (C[M,N] = A[M,K] * B[K,N], K small).
// With a short reduction the kernel is bound by writing C, so the goal is simply a
// large, even output split across all cube cores with the whole K in one base block.
#include "narrow_k_matmul_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus NarrowKMatmulTiling(gert::TilingContext *context)
{
    const gert::Shape &a = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &b = context->GetInputShape(1)->GetStorageShape();
    if (a.GetDimNum() != 2 || b.GetDimNum() != 2 || a.GetDim(1) != b.GetDim(0)) {
        return ge::GRAPH_FAILED;
    }
    const int32_t M = a.GetDim(0);
    const int32_t K = a.GetDim(1);
    const int32_t N = b.GetDim(1);

    const bool half = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16;
    const auto dt = half ? matmul_tiling::DataType::DT_FLOAT16 : matmul_tiling::DataType::DT_FLOAT;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t cubeCores = plat.GetCoreNumAic();

    matmul_tiling::MultiCoreMatmulTiling tiler(plat);
    tiler.SetDim(cubeCores);
    tiler.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt, false);
    tiler.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt, false);
    tiler.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt);
    tiler.SetBias(false);
    tiler.SetShape(M, N, K);
    tiler.SetOrgShape(M, N, K);
    // one base block covers the full (small) K; output blocks as large as L0C allows
    const int32_t baseK = K <= 128 ? ((K + 15) / 16 * 16) : -1;
    tiler.SetFixSplit(128, 256, baseK);
    tiler.SetBufferSpace(-1, -1, -1);

    NarrowKMatmulTilingData td;
    if (tiler.GetTiling(td.mm) == -1) {
        // let the library pick the base block if the fixed split does not fit
        tiler.SetFixSplit(-1, -1, -1);
        if (tiler.GetTiling(td.mm) == -1) {
            return ge::GRAPH_FAILED;
        }
    }
    const uint32_t sM = td.mm.get_singleCoreM();
    const uint32_t sN = td.mm.get_singleCoreN();
    const uint32_t mBlocks = (M + sM - 1) / sM;
    const uint32_t nBlocks = (N + sN - 1) / sN;
    td.set_mBlocks(mBlocks);
    td.set_nBlocks(nBlocks);

    context->SetBlockDim(mBlocks * nBlocks);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
