#include "sigmoid_mlp_log_sum_exp_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr int32_t BASE_M = 128;
constexpr int32_t BASE_N = 128;

// one GEMM C = A @ B^T + bias where every block owns `bandM` full rows of C
bool BuildGemmTiling(const platform_ascendc::PlatformAscendC &plat, uint32_t dim, int32_t m, int32_t n, int32_t k,
                     int32_t bandM, TCubeTiling &out)
{
    using namespace matmul_tiling;
    MultiCoreMatmulTiling t(plat);
    t.SetDim(dim);
    t.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, false);
    t.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, true);
    t.SetCType(TPosition::VECIN, CubeFormat::ND, DataType::DT_FLOAT);
    t.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    t.SetShape(m, n, k);
    t.SetOrgShape(m, n, k);
    t.SetSingleShape(bandM, n, k);  // split rows only: a block sees whole output rows
    t.SetBias(true);
    t.SetFixSplit(bandM < BASE_M ? -1 : BASE_M, n < BASE_N ? -1 : BASE_N, -1);
    t.SetBufferSpace(-1, -1, -1);
    return t.GetTiling(out) != -1;
}
}  // namespace

ge::graphStatus SigmoidMlpLseTiling(gert::TilingContext *context)
{
    auto xs = context->GetInputShape(0)->GetStorageShape();
    auto w1s = context->GetInputShape(1)->GetStorageShape();
    auto w2s = context->GetInputShape(3)->GetStorageShape();
    if (xs.GetDimNum() != 2 || w1s.GetDimNum() != 2 || w2s.GetDimNum() != 2) {
        return ge::GRAPH_FAILED;
    }
    int32_t M = xs.GetDim(0);
    int32_t K = xs.GetDim(1);
    int32_t Hd = w1s.GetDim(0);
    int32_t N = w2s.GetDim(0);
    if (w1s.GetDim(1) != K || w2s.GetDim(1) != Hd) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aiv = plat.GetCoreNumAiv();
    uint32_t aic = plat.GetCoreNumAic();

    // row band per vector block, multiple of 16 rows
    int32_t band = (M + aiv - 1) / aiv;
    band = (band + 15) / 16 * 16;
    if (band > M) {
        band = M;
    }
    uint32_t used = (M + band - 1) / band;

    SigmoidMlpLseTilingData td;
    if (!BuildGemmTiling(plat, aiv, M, Hd, K, band, td.hiddenMm) ||
        !BuildGemmTiling(plat, aiv, M, N, Hd, band, td.outputMm)) {
        return ge::GRAPH_FAILED;
    }
    td.set_rowsPerBlock(band);
    td.set_usedBlocks(used);

    context->SetBlockDim(aic);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    // library workspace + the sigmoid activations (M, Hd) between the two GEMMs
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize() + (size_t)M * Hd * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
