// Tiling for LinearGroupNormClamp: cube GEMM split by MultiCoreMatmulTiling, then
// (row, group) segments of the float product are normalised on the vector cores.
#include "linear_group_norm_clamp_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static constexpr uint32_t MAX_GROUP_LEN = 4096;   // one segment (plus its work buffers) has to sit in UB

ge::graphStatus LinearGroupNormClampTiling(gert::TilingContext *context)
{
    auto ascend = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t cubeCores = ascend.GetCoreNumAic();
    const uint32_t vecCoresAll = ascend.GetCoreNumAiv();

    auto xs = context->GetInputShape(0)->GetStorageShape();   // [M, K]
    auto wsh = context->GetInputShape(1)->GetStorageShape();  // [N, K]
    if (xs.GetDimNum() != 2 || wsh.GetDimNum() != 2) {
        return ge::GRAPH_FAILED;
    }
    const int32_t M = xs.GetDim(0);
    const int32_t K = xs.GetDim(1);
    const int32_t N = wsh.GetDim(0);
    if (wsh.GetDim(1) != K) {
        return ge::GRAPH_FAILED;
    }

    auto attrs = context->GetAttrs();
    const int64_t *groupsPtr = attrs->GetAttrPointer<int64_t>(0);
    const float *epsPtr = attrs->GetAttrPointer<float>(1);
    const float *lowPtr = attrs->GetAttrPointer<float>(2);
    const float *highPtr = attrs->GetAttrPointer<float>(3);
    uint32_t groups = groupsPtr ? static_cast<uint32_t>(*groupsPtr) : 1;
    if (groups == 0 || N % groups != 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t groupLen = N / groups;
    if (groupLen > MAX_GROUP_LEN) {
        return ge::GRAPH_FAILED;
    }

    auto dt = context->GetInputDesc(0)->GetDataType();
    auto cubeDt = dt == ge::DT_FLOAT16 ? matmul_tiling::DataType::DT_FLOAT16 : matmul_tiling::DataType::DT_FLOAT;

    LinearGroupNormClampTilingData tiling;
    matmul_tiling::MultiCoreMatmulTiling gemm(ascend);
    gemm.SetDim(vecCoresAll);
    gemm.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, cubeDt);
    gemm.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, cubeDt, true);
    gemm.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    gemm.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, cubeDt);
    gemm.SetShape(M, N, K);
    gemm.SetOrgShape(M, N, K);
    gemm.SetBias(true);
    gemm.SetBufferSpace(-1, -1, -1);
    if (gemm.GetTiling(tiling.gemm) == -1) {
        return ge::GRAPH_FAILED;
    }

    uint32_t segs = static_cast<uint32_t>(M) * groups;
    uint32_t vecCores = segs < vecCoresAll ? segs : vecCoresAll;
    tiling.set_batch(M);
    tiling.set_features(N);
    tiling.set_numGroups(groups);
    tiling.set_groupLen(groupLen);
    tiling.set_groupLenAlign((groupLen + 63) / 64 * 64);
    tiling.set_segTotal(segs);
    tiling.set_segPerCore(segs / vecCores);
    tiling.set_segExtra(segs % vecCores);
    tiling.set_vecCores(vecCores);
    tiling.set_eps(epsPtr ? *epsPtr : 1e-5f);
    tiling.set_clipLow(lowPtr ? *lowPtr : -1.0f);
    tiling.set_clipHigh(highPtr ? *highPtr : 1.0f);

    context->SetBlockDim(ascend.CalcTschBlockDim(vecCoresAll, cubeCores, vecCoresAll));
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 1 : 0);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    size_t *workspaces = context->GetWorkspaceSizes(1);
    workspaces[0] = ascend.GetLibApiWorkSpaceSize() + static_cast<size_t>(M) * N * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
