/**
 * @file mat_mul_both_transposed_tiling.cpp
 * @brief Host tiling for MatMulBothTransposed.
 *
 * Both operands are consumed in their stored layout: a is [K, M] and is read as the transposed
 * left matrix, b is [N, K] and is read as the transposed right matrix, so no transpose ever
 * materialises in memory.  The multi-core split over M and N plus the L1/L0 block sizes are
 * produced by the Matmul high-level tiling API.
 */
#include "mat_mul_both_transposed_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
matmul_tiling::DataType ToMmType(ge::DataType dt)
{
    switch (dt) {
        case ge::DT_FLOAT16:
            return matmul_tiling::DataType::DT_FLOAT16;
        case ge::DT_BF16:
            return matmul_tiling::DataType::DT_BF16;
        default:
            return matmul_tiling::DataType::DT_FLOAT;
    }
}
} // namespace

ge::graphStatus MatMulBothTransposedTilingFunc(gert::TilingContext* context)
{
    const gert::Shape& aShape = context->GetInputShape(0)->GetStorageShape();   // [K, M]
    const gert::Shape& bShape = context->GetInputShape(1)->GetStorageShape();   // [N, K]
    if (aShape.GetDimNum() != 2 || bShape.GetDimNum() != 2 || aShape.GetDim(0) != bShape.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    const int32_t k = static_cast<int32_t>(aShape.GetDim(0));
    const int32_t m = static_cast<int32_t>(aShape.GetDim(1));
    const int32_t n = static_cast<int32_t>(bShape.GetDim(0));
    if (m <= 0 || n <= 0 || k <= 0) {
        return ge::GRAPH_FAILED;
    }

    const matmul_tiling::DataType inType = ToMmType(context->GetInputDesc(0)->GetDataType());
    const matmul_tiling::DataType outType = ToMmType(context->GetOutputDesc(0)->GetDataType());

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t aicNum = platform.GetCoreNumAic();
    const uint32_t aivNum = platform.GetCoreNumAiv();

    matmul_tiling::MultiCoreMatmulTiling mm(platform);
    // In mixed mode each AIC is driven by two AIV cores; the matmul is split over all AIVs.
    mm.SetDim(aivNum);
    mm.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, inType, true);
    mm.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, inType, true);
    mm.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, outType);
    mm.SetShape(m, n, k);
    mm.SetOrgShape(m, n, k);
    mm.SetBias(false);
    mm.SetBufferSpace(-1, -1, -1);

    MatMulBothTransposedTilingData td;
    if (mm.GetTiling(td.cubeTiling) == -1) {
        return ge::GRAPH_FAILED;
    }

    context->SetBlockDim(aicNum);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
