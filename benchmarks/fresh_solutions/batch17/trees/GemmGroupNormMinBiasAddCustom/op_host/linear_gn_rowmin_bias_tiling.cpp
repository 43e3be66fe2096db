#include "linear_gn_rowmin_bias_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus LinearGnRowminBiasTiling(gert::TilingContext *ctx)
{
    const gert::Shape &xs = ctx->GetInputShape(0)->GetStorageShape();   // (B, In)
    const gert::Shape &ws = ctx->GetInputShape(1)->GetStorageShape();   // (Out, In)
    if (xs.GetDimNum() != 2 || ws.GetDimNum() != 2 || xs.GetDim(1) != ws.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    const int32_t rows = xs.GetDim(0);
    const int32_t inF = xs.GetDim(1);
    const int32_t outF = ws.GetDim(0);
    const auto *attrs = ctx->GetAttrs();
    const uint32_t groups = static_cast<uint32_t>(*attrs->GetInt(0));
    const float eps = *attrs->GetFloat(1);
    if (groups == 0 || outF % groups != 0) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    const uint32_t aic = plat.GetCoreNumAic();

    // GEMM: y = x * W^T + b  into workspace (float32)
    matmul_tiling::MultiCoreMatmulTiling mt(plat);
    mt.SetDim(aic);
    mt.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    mt.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    mt.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetBias(true);
    mt.SetShape(rows, outF, inF);
    mt.SetOrgShape(rows, outF, inF);
    mt.SetBufferSpace(-1, -1, -1);

    LinearGnRowminBiasTilingData td;
    if (mt.GetTiling(td.gemm) == -1) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t mBlocks = (rows + td.gemm.get_singleCoreM() - 1) / td.gemm.get_singleCoreM();
    const uint32_t nBlocks = (outF + td.gemm.get_singleCoreN() - 1) / td.gemm.get_singleCoreN();

    const uint32_t gs = outF / groups;
    const uint32_t gsAlign = (gs + 7) / 8 * 8;
    // row pass buffers: y x2, gamma, beta, work  -> 5 * groupsPerLoad * gsAlign floats
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t perLoad = static_cast<uint32_t>((ub - 16 * 1024) / (5ULL * gsAlign * sizeof(float)));
    perLoad = perLoad > groups ? groups : (perLoad == 0 ? 1 : perLoad);
    perLoad = perLoad > 4095 ? 4095 : perLoad;   // DataCopy blockCount limit

    td.set_rows(rows);
    td.set_features(outF);
    td.set_groups(groups);
    td.set_groupSize(gs);
    td.set_groupSizeAlign(gsAlign);
    td.set_groupsPerLoad(perLoad);
    td.set_mBlocks(mBlocks);
    td.set_nBlocks(nBlocks);
    td.set_epsilon(eps);

    ctx->SetBlockDim(aic);
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());
    // system area + GEMM result (B x Out) + per-row minima
    const uint64_t user = (static_cast<uint64_t>(rows) * outF + ((rows + 7) / 8 * 8)) * sizeof(float);
    ctx->GetWorkspaceSizes(1)[0] = plat.GetLibApiWorkSpaceSize() + user;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
