// DenseMishGroupNorm tiling: cube matmul split over all cores into an fp32
// workspace, then a vector epilogue that walks rows group by group.
#include "dense_mish_group_norm_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus DenseMishGroupNormTilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const auto xs = context->GetInputShape(0)->GetStorageShape();   // [M, K]
    const auto ws = context->GetInputShape(1)->GetStorageShape();   // [N, K]
    const int32_t M = xs.GetDim(0), K = xs.GetDim(1), N = ws.GetDim(0);
    const auto *attrs = context->GetAttrs();
    const int64_t G = *attrs->GetAttrPointer<int64_t>(0);
    const float eps = *attrs->GetAttrPointer<float>(1);
    if (ws.GetDim(1) != K || G <= 0 || N % G != 0) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t gs = static_cast<uint32_t>(N / G);
    if (gs % 8 != 0) {
        return ge::GRAPH_FAILED;   // groups must start on 32B boundaries in UB
    }

    DenseMishGroupNormTilingData td;
    const uint32_t cores = plat.GetCoreNumAic();
    matmul_tiling::MultiCoreMatmulTiling mt(plat);
    mt.SetDim(cores);
    mt.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    mt.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    mt.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetShape(M, N, K);
    mt.SetOrgShape(M, N, K);
    mt.SetBias(true);
    mt.SetBufferSpace(-1, -1, -1);
    if (mt.GetTiling(td.mmTiling) == -1) {
        return ge::GRAPH_FAILED;
    }

    // ~6 working buffers of groupsPerPass * gs floats must fit in ~150KB
    uint32_t gpp = (150 * 1024 / sizeof(float) / 6) / gs;
    gpp = gpp == 0 ? 1 : gpp;
    gpp = gpp > static_cast<uint32_t>(G) ? static_cast<uint32_t>(G) : gpp;
    while (G % gpp != 0) {
        --gpp;
    }

    td.set_rows(M);
    td.set_inFeatures(K);
    td.set_outFeatures(N);
    td.set_groups(static_cast<uint32_t>(G));
    td.set_groupSize(gs);
    td.set_groupsPerPass(gpp);
    td.set_eps(eps);

    context->SetBlockDim(cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = plat.GetLibApiWorkSpaceSize() + static_cast<size_t>(M) * N * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}
