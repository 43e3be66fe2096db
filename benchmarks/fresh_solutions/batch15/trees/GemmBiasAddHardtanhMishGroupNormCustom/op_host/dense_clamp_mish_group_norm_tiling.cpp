#include "dense_clamp_mish_group_norm_tiling.h"
#include "tiling/platform/platform_ascendc.h"

using namespace matmul_tiling;

namespace optiling {
ge::graphStatus DenseClampMishGroupNormTilingFunc(gert::TilingContext *context)
{
    const auto &xs = context->GetInputShape(0)->GetStorageShape();   // (M, K)
    const auto &ws = context->GetInputShape(1)->GetStorageShape();   // (N, K)
    if (xs.GetDimNum() != 2 || ws.GetDimNum() != 2 || xs.GetDim(1) != ws.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t m = static_cast<uint32_t>(xs.GetDim(0));
    const uint32_t k = static_cast<uint32_t>(xs.GetDim(1));
    const uint32_t n = static_cast<uint32_t>(ws.GetDim(0));

    const auto *attrs = context->GetAttrs();
    const int64_t groups = *attrs->GetAttrPointer<int64_t>(0);
    const float eps = *attrs->GetAttrPointer<float>(1);
    const float lo = *attrs->GetAttrPointer<float>(2);
    const float hi = *attrs->GetAttrPointer<float>(3);
    if (groups <= 0 || n % groups != 0) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t groupSize = n / static_cast<uint32_t>(groups);

    // Blocks of whole groups along N so the epilogue can normalize in place.
    uint32_t groupsPerBlock = 1;
    while (groupsPerBlock * 2 * groupSize <= 1024 && (groupsPerBlock * 2) <= static_cast<uint32_t>(groups)) {
        groupsPerBlock *= 2;
    }
    const uint32_t blockN = groupsPerBlock * groupSize;
    const uint32_t blockM = m < 128 ? m : 128;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t aicNum = plat.GetCoreNumAic();
    const uint32_t blocks = ((m + blockM - 1) / blockM) * ((n + blockN - 1) / blockN);
    const uint32_t used = blocks < aicNum ? blocks : aicNum;

    MatmulApiTiling mm(plat);
    mm.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    mm.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetBiasType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetShape(blockM, blockN, k);
    mm.SetOrgShape(m, n, k);
    mm.SetBias(true);
    mm.SetBufferSpace(-1, -1, -1);

    DenseClampMishGroupNormTilingData td;
    if (mm.GetTiling(td.mmTiling) == -1) {
        return ge::GRAPH_FAILED;
    }
    td.set_m(m);
    td.set_n(n);
    td.set_k(k);
    td.set_blockM(blockM);
    td.set_blockN(blockN);
    td.set_groupSize(groupSize);
    td.set_clipLo(lo);
    td.set_clipHi(hi);
    td.set_eps(eps);

    context->SetBlockDim(used);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    // system workspace for the matmul library + the raw GEMM result (M x N fp32)
    size_t *wsSize = context->GetWorkspaceSizes(1);
    wsSize[0] = static_cast<size_t>(plat.GetLibApiWorkSpaceSize()) + static_cast<size_t>(m) * n * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}
