#include "ghost_vlad_pool_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t UB_VLAD_LIMIT = 64 * 1024;   // one [D, K] fp32 block must fit in 64KB
constexpr uint32_t ROW_TILE = 64;
inline uint32_t Align8(uint32_t v) { return (v + 7) / 8 * 8; }
using matmul_tiling::CubeFormat;
using matmul_tiling::DataType;
using matmul_tiling::TPosition;
} // namespace

ge::graphStatus GhostVladPoolTilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const auto &xs = context->GetInputShape(0)->GetStorageShape();   // [B, N, D]
    const auto &cs = context->GetInputShape(1)->GetStorageShape();   // [D, K+G]
    const int64_t *clusterSize = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    const float *bnEps = context->GetAttrs()->GetAttrPointer<float>(1);
    if (xs.GetDimNum() != 3 || cs.GetDim(0) != xs.GetDim(2) || clusterSize == nullptr) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t B = xs.GetDim(0), N = xs.GetDim(1), D = xs.GetDim(2);
    const uint32_t C = cs.GetDim(1);
    const uint32_t K = static_cast<uint32_t>(*clusterSize);
    if (K == 0 || K > C || K > 64 || D % 8 != 0 || static_cast<uint64_t>(D) * Align8(K) * 4 > UB_VLAD_LIMIT) {
        return ge::GRAPH_FAILED;
    }

    GhostVladPoolTilingData td;
    td.set_batch(B);
    td.set_numSamples(N);
    td.set_featDim(D);
    td.set_allClusters(C);
    td.set_allPitch(Align8(C));
    td.set_realClusters(K);
    td.set_realPitch(Align8(K));
    td.set_rowTile(ROW_TILE);
    td.set_bnEps(bnEps == nullptr ? 1e-5f : *bnEps);
    td.set_normEps(1e-12f);

    const uint32_t aiv = plat.GetCoreNumAiv();
    const uint32_t aic = plat.GetCoreNumAic();
    td.set_vecCoreNum(aiv);
    td.set_cubeCoreNum(aic);

    // soft-assignment logits, split across cores
    matmul_tiling::MultiCoreMatmulTiling logit(plat);
    logit.SetDim(aiv);
    logit.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    logit.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    logit.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    logit.SetShape(B * N, C, D);
    logit.SetOrgShape(B * N, C, D);
    logit.SetBias(false);
    logit.SetBufferSpace(-1, -1, -1);
    if (logit.GetTiling(td.logitTiling) == -1) {
        return ge::GRAPH_FAILED;
    }

    // residual aggregation, one item per core invocation: V^T = X^T * A
    matmul_tiling::MatmulApiTiling agg(plat);
    agg.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, true);
    agg.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, false);
    agg.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    agg.SetShape(D, K, N);
    agg.SetOrgShape(D, K, N);
    agg.SetBias(false);
    agg.SetBufferSpace(-1, -1, -1);
    if (agg.GetTiling(td.aggTiling) == -1) {
        return ge::GRAPH_FAILED;
    }

    context->SetBlockDim(aic);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    // workspace: logits [BN, C] | assignment [BN, K] | assignment mass [B, Kp] | stats [aiv, 2*Cp] | V^T [B, D, K]
    const uint64_t bn = static_cast<uint64_t>(B) * N;
    uint64_t usr = bn * C + bn * K + static_cast<uint64_t>(B) * Align8(K) + static_cast<uint64_t>(aiv) * 2 * Align8(C) +
                   static_cast<uint64_t>(B) * D * K;
    context->GetWorkspaceSizes(1)[0] = plat.GetLibApiWorkSpaceSize() + usr * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
