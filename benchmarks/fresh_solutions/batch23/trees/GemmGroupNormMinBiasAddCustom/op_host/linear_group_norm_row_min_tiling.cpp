#include "linear_group_norm_row_min_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static constexpr uint32_t FEAT_CHUNK_MAX = 8192;   // 32 KiB of fp32 per row pass
static constexpr uint32_t ROW_CHUNK_MAX = 8192;

ge::graphStatus LinearGroupNormRowMinTilingFunc(gert::TilingContext* context)
{
    auto xShape = context->GetInputShape(0)->GetStorageShape();   // (M, K)
    auto wShape = context->GetInputShape(1)->GetStorageShape();   // (N, K)
    const uint32_t m = static_cast<uint32_t>(xShape.GetDim(0));
    const uint32_t k = static_cast<uint32_t>(xShape.GetDim(1));
    const uint32_t n = static_cast<uint32_t>(wShape.GetDim(0));
    if (static_cast<uint32_t>(wShape.GetDim(1)) != k) {
        return ge::GRAPH_FAILED;
    }

    auto attrs = context->GetAttrs();
    const int64_t groups = *attrs->GetAttrPointer<int64_t>(0);
    const float eps = *attrs->GetAttrPointer<float>(1);
    if (groups <= 0 || n % groups != 0) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t gs = n / static_cast<uint32_t>(groups);
    // statistics are gathered with one WholeReduce repeat per group: needs 32B-aligned groups of <= 64 floats
    if (gs % 8 != 0 || gs > 64) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t aicNum = plat.GetCoreNumAic();

    LinearGroupNormRowMinTiling td;
    matmul_tiling::MultiCoreMatmulTiling mm(plat);
    mm.SetDim(aicNum);
    mm.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    mm.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetShape(m, n, k);
    mm.SetOrgShape(m, n, k);
    mm.SetBias(true);
    mm.SetBufferSpace(-1, -1, -1);
    if (mm.GetTiling(td.mmTiling) == -1) {
        return ge::GRAPH_FAILED;
    }

    uint32_t featChunk = n;
    if (featChunk > FEAT_CHUNK_MAX) {
        featChunk = FEAT_CHUNK_MAX / gs * gs;
    }
    uint32_t rowChunk = ((m < ROW_CHUNK_MAX ? m : ROW_CHUNK_MAX) + 7) / 8 * 8;

    td.set_rows(m);
    td.set_features(n);
    td.set_reduceDim(k);
    td.set_groups(static_cast<uint32_t>(groups));
    td.set_groupSize(gs);
    td.set_featChunk(featChunk);
    td.set_rowChunk(rowChunk);
    td.set_eps(eps);

    context->SetBlockDim(aicNum);   // mixed kernel: one cube core + its vector cores per block
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    // workspace: library scratch + dense output (M x N) + per-row minima (M)
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize() + static_cast<size_t>(m) * n * sizeof(float) +
            static_cast<size_t>(m + 64) * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
