/**
 * Tiling for SlidingWindowSelfAttention.
 *
 * The four projections are plain GEMMs of identical shape (B*N x D) * (D x D)^T, so a single
 * multi-core cube tiling is computed and reused. The attention core runs on the vector cores:
 * one work unit = (batch, head, block of queries); the key/value slab that block can see
 * ([q0 - window, q0 + queryBlock)) is staged in UB once.
 */
#include <cmath>
#include "sliding_window_self_attention_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint64_t UB_SLACK = 16 * 1024;
constexpr uint32_t KEY_CHUNK = 64;
inline uint32_t Align8(uint32_t v) { return (v + 7U) / 8U * 8U; }
}

ge::graphStatus SlidingWindowSelfAttentionTilingFunc(gert::TilingContext *context)
{
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    if (xs.GetDimNum() != 3) {
        return ge::GRAPH_FAILED;
    }
    const auto *attrs = context->GetAttrs();
    uint32_t heads = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    uint32_t window = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(1));

    uint32_t b = static_cast<uint32_t>(xs.GetDim(0));
    uint32_t n = static_cast<uint32_t>(xs.GetDim(1));
    uint32_t d = static_cast<uint32_t>(xs.GetDim(2));
    if (heads == 0 || d % heads != 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t dh = d / heads;
    // the score kernel reduces one key row per repeat: head_dim must fit in one 256B repeat
    if (dh > 64 || dh % 8 != 0) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t aicNum = plat.GetCoreNumAic();
    uint32_t aivNum = plat.GetCoreNumAiv();

    // choose the largest query block whose key/value slabs fit
    uint32_t qb = 64;
    for (; qb >= 8; qb /= 2) {
        uint64_t keys = static_cast<uint64_t>(window) + qb;
        uint64_t bytes = (2 * keys * dh             // K, V slab
                          + 2ULL * qb * dh          // Q block, output block
                          + KEY_CHUNK * dh          // product scratch
                          + 2ULL * Align8(window + 1) + 64) * sizeof(float);
        if (bytes + UB_SLACK <= ub) {
            break;
        }
    }
    if (qb < 8) {
        return ge::GRAPH_FAILED;
    }
    if (qb > n) {
        qb = Align8(n);
    }
    uint32_t blocksPerSeq = (n + qb - 1) / qb;

    SlidingWindowSelfAttentionTilingData td;
    td.set_batch(b);
    td.set_seqLen(n);
    td.set_modelDim(d);
    td.set_numHeads(heads);
    td.set_headDim(dh);
    td.set_window(window);
    td.set_queryBlock(qb);
    td.set_blocksPerSeq(blocksPerSeq);
    td.set_unitCount(b * heads * blocksPerSeq);
    td.set_vecCoreNum(aivNum);
    td.set_scale(1.0f / std::sqrt(static_cast<float>(dh)));

    // y = x * W^T + bias, W stored (out, in) as in a dense layer
    matmul_tiling::MultiCoreMatmulTiling mm(plat);
    int32_t m = static_cast<int32_t>(b * n);
    mm.SetDim(aicNum);
    mm.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    mm.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    mm.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetShape(m, static_cast<int32_t>(d), static_cast<int32_t>(d));
    mm.SetOrgShape(m, static_cast<int32_t>(d), static_cast<int32_t>(d));
    mm.SetBias(true);
    mm.SetBufferSpace(-1, -1, -1);
    if (mm.GetTiling(td.projTiling) == -1) {
        return ge::GRAPH_FAILED;
    }

    context->SetBlockDim(aicNum);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    // workspace: lib api area + Q, K, V and the merged-head attention output
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize() + 4ULL * b * n * d * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
