/**
 * Host-side tiling for TransposedLhsGemm.
 *
 * The left operand is stored K-major ([K, M]); the cube unit reads it with the
 * transpose flag set, so no explicit transpose pass over GM is needed.
 * Output tiles are spread over all AI cores by the multi-core matmul tiler.
 */
#include "transposed_lhs_gemm_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

static matmul_tiling::DataType ToMmType(ge::DataType dt)
{
    return dt == ge::DT_FLOAT16 ? matmul_tiling::DataType::DT_FLOAT16 : matmul_tiling::DataType::DT_FLOAT;
}

ge::graphStatus TransposedLhsGemmTilingFunc(gert::TilingContext *context)
{
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());

    const gert::StorageShape *aShape = context->GetInputShape(0);
    const gert::StorageShape *bShape = context->GetInputShape(1);
    if (aShape == nullptr || bShape == nullptr) {
        return ge::GRAPH_FAILED;
    }
    // a: [K, M], b: [K, N]
    const int32_t k = static_cast<int32_t>(aShape->GetStorageShape().GetDim(0));
    const int32_t m = static_cast<int32_t>(aShape->GetStorageShape().GetDim(1));
    const int32_t kb = static_cast<int32_t>(bShape->GetStorageShape().GetDim(0));
    const int32_t n = static_cast<int32_t>(bShape->GetStorageShape().GetDim(1));
    if (k != kb || k <= 0 || m <= 0 || n <= 0) {
        return ge::GRAPH_FAILED;
    }

    const ge::DataType inDtype = context->GetInputDesc(0)->GetDataType();
    const matmul_tiling::DataType inMm = ToMmType(inDtype);
    const matmul_tiling::DataType outMm = ToMmType(context->GetOutputDesc(0)->GetDataType());

    const uint32_t aicNum = ascendcPlatform.GetCoreNumAic();

    matmul_tiling::MultiCoreMatmulTiling mmTiler(ascendcPlatform);
    mmTiler.SetDim(aicNum);
    // A is read transposed from GM
    mmTiler.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, inMm, true);
    mmTiler.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, inMm, false);
    mmTiler.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, outMm);
    mmTiler.SetShape(m, n, k);
    mmTiler.SetOrgShape(m, n, k);
    mmTiler.SetBias(false);
    mmTiler.SetBufferSpace(-1, -1, -1);

    TransposedLhsGemmTilingData tiling;
    if (mmTiler.GetTiling(tiling.cubeTiling) == -1) {
        return ge::GRAPH_FAILED;
    }

    // how many cores the tiler actually split the output over
    const int32_t singleM = tiling.cubeTiling.get_singleCoreM();
    const int32_t singleN = tiling.cubeTiling.get_singleCoreN();
    const uint32_t mBlocks = static_cast<uint32_t>((m + singleM - 1) / singleM);
    const uint32_t nBlocks = static_cast<uint32_t>((n + singleN - 1) / singleN);
    uint32_t usedCores = mBlocks * nBlocks;
    if (usedCores > aicNum) {
        usedCores = aicNum;
    }

    tiling.set_m(static_cast<uint32_t>(m));
    tiling.set_n(static_cast<uint32_t>(n));
    tiling.set_k(static_cast<uint32_t>(k));
    tiling.set_usedCores(usedCores);

    context->SetBlockDim(usedCores);
    context->SetTilingKey(inDtype == ge::DT_FLOAT16 ? 1 : 0);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    // the matmul high-level API needs a system workspace
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = static_cast<size_t>(ascendcPlatform.GetLibApiWorkSpaceSize());
    return ge::GRAPH_SUCCESS;
}

} // namespace optiling
