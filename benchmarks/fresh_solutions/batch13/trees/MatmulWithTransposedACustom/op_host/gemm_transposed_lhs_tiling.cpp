#include "gemm_transposed_lhs_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static matmul_tiling::DataType ToMmType(ge::DataType t)
{
    return t == ge::DT_FLOAT16 ? matmul_tiling::DataType::DT_FLOAT16 : matmul_tiling::DataType::DT_FLOAT;
}

ge::graphStatus GemmTransposedLhsTiling(gert::TilingContext *context)
{
    const gert::Shape &aShape = context->GetInputShape(0)->GetStorageShape();   // (K, M)
    const gert::Shape &bShape = context->GetInputShape(1)->GetStorageShape();   // (K, N)
    if (aShape.GetDimNum() != 2 || bShape.GetDimNum() != 2) {
        return ge::GRAPH_FAILED;
    }
    // a is stored K x M (we multiply by its transpose)
    int64_t K = aShape.GetDim(0);
    int64_t M = aShape.GetDim(1);
    int64_t Kb = bShape.GetDim(0);
    int64_t N = bShape.GetDim(1);
    if (K != Kb || M <= 0 || N <= 0 || K <= 0) {
        return ge::GRAPH_FAILED;
    }

    auto ascendc = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    auto dtype = ToMmType(context->GetInputDesc(0)->GetDataType());
    uint32_t coreNum = ascendc.GetCoreNumAiv();

    matmul_tiling::MultiCoreMatmulTiling mt(ascendc);
    mt.SetDim(coreNum);
    mt.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dtype, true);
    mt.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dtype, false);
    mt.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dtype);
    mt.SetShape(M, N, K);
    mt.SetOrgShape(M, N, K);
    mt.SetBias(false);
    mt.SetBufferSpace(-1, -1, -1);

    GemmTransposedLhsTilingData data;
    if (mt.GetTiling(data.cube) == -1) {
        return ge::GRAPH_FAILED;
    }
    uint32_t singleM = data.cube.get_singleCoreM();
    uint32_t singleN = data.cube.get_singleCoreN();
    data.set_mBlocks(static_cast<uint32_t>((M + singleM - 1) / singleM));
    data.set_nBlocks(static_cast<uint32_t>((N + singleN - 1) / singleN));

    context->SetBlockDim(ascendc.CalcTschBlockDim(coreNum, ascendc.GetCoreNumAic(), coreNum));
    data.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(data.GetDataSize());
    size_t *workspace = context->GetWorkspaceSizes(1);
    workspace[0] = ascendc.GetLibApiWorkSpaceSize();   // matmul message area only
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
