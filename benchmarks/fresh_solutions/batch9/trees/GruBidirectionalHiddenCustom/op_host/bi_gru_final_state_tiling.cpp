/*
 * Host tiling of BiGruFinalState.
 *
 * Per layer the kernel runs
 *   1. input projections gi[dir] = in * W_ih[dir]^T + b_ih[dir] on the cube (all timesteps at once),
 *   2. the recurrence on the vector cores: the H hidden units of each direction are partitioned
 *      over coresPerDir cores, each keeping its rows of W_hh resident in UB; cores exchange the
 *      hidden state through workspace and meet at a SyncAll every timestep.
 */
#include "bi_gru_final_state_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static inline uint32_t DivUp(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

static bool ProjectionTiling(platform_ascendc::PlatformAscendC &plat, uint32_t m, uint32_t n, uint32_t k,
                             uint32_t cubeCores, TCubeTiling &out)
{
    matmul_tiling::MultiCoreMatmulTiling t(plat);
    t.SetDim(cubeCores);
    t.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    t.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    t.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    t.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    t.SetShape(m, n, k);
    t.SetOrgShape(m, n, k);
    t.SetBias(true);
    t.SetBufferSpace(-1, -1, -1);
    return t.GetTiling(out) != -1;
}

ge::graphStatus BiGruFinalStateTilingFunc(gert::TilingContext *context)
{
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();   // (T, B, I)
    const gert::Shape &hs = context->GetInputShape(1)->GetStorageShape();   // (2L, B, H)
    if (xs.GetDimNum() != 3 || hs.GetDimNum() != 3 || hs.GetDim(0) % 2 != 0 || hs.GetDim(1) != xs.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    uint32_t T = xs.GetDim(0), B = xs.GetDim(1), I = xs.GetDim(2);
    uint32_t L = hs.GetDim(0) / 2, H = hs.GetDim(2);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aic = plat.GetCoreNumAic();
    uint32_t aiv = plat.GetCoreNumAiv();

    uint32_t hPad = DivUp(H, 64) * 64;
    uint32_t units = DivUp(DivUp(H, aiv / 2), 8) * 8;
    uint32_t coresPerDir = DivUp(H, units);
    // resident W_hh slice: 3 gates x units rows x hPad floats
    if (3ULL * units * hPad * sizeof(float) > 96 * 1024 || 3 * units > 255 || hPad / 8 > 255) {
        return ge::GRAPH_FAILED;
    }

    BiGruFinalStateTiling td;
    td.set_seqLen(T);
    td.set_batch(B);
    td.set_inputSize(I);
    td.set_hidden(H);
    td.set_hiddenPad(hPad);
    td.set_layers(L);
    td.set_unitsPerCore(units);
    td.set_coresPerDir(coresPerDir);

    uint64_t rows = static_cast<uint64_t>(T) * B;
    uint64_t giSize = 2 * rows * 3 * H;         // both directions
    uint64_t seqSize = rows * 2 * H;            // one layer's output sequence
    uint64_t hSize = 2ULL * 2 * B * H;          // [dir][parity][B][H]
    td.set_wsGiOffset(0);
    td.set_wsSeqOffset(giSize);
    td.set_wsHOffset(giSize + 2 * seqSize);

    if (!ProjectionTiling(plat, rows, 3 * H, I, aic, td.projFirst) ||
        !ProjectionTiling(plat, rows, 3 * H, 2 * H, aic, td.projRest)) {
        return ge::GRAPH_FAILED;
    }

    context->SetBlockDim(aic);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize() + (giSize + 2 * seqSize + hSize) * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
