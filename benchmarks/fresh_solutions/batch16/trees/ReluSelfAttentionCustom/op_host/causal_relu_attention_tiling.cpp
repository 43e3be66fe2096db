// Tiling for CausalReluAttention.
//
// Three cube stages share one kernel launch:
//   1) qkv   = x @ W^T + b           (multi-core, output in workspace)
//   2) s     = q_h @ k_h^T           (one (batch, head) pair per core iteration)
//   3) y_h   = relu(mask(s*scale)) @ v_h
// Stage 2/3 run single-core matmuls, the (b, h) pairs are spread across cores.
#include "causal_relu_attention_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include <cmath>

namespace optiling {
namespace {
constexpr uint32_t UB_ROW_CHUNK = 8192;   // floats per vector pass over a score row
constexpr uint64_t ALIGN_BYTES = 512;

uint64_t AlignUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }
}

ge::graphStatus CausalReluAttentionTilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const auto xs = context->GetInputShape(0)->GetStorageShape();
    const auto ws = context->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 3 || ws.GetDimNum() != 2) {
        return ge::GRAPH_FAILED;
    }
    const int32_t B = static_cast<int32_t>(xs.GetDim(0));
    const int32_t T = static_cast<int32_t>(xs.GetDim(1));
    const int32_t C = static_cast<int32_t>(xs.GetDim(2));
    const int64_t *nhAttr = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    const int32_t nh = nhAttr == nullptr ? 1 : static_cast<int32_t>(*nhAttr);
    if (nh <= 0 || C % nh != 0 || ws.GetDim(0) != 3 * C || ws.GetDim(1) != C) {
        return ge::GRAPH_FAILED;
    }
    const int32_t hs = C / nh;
    const uint32_t aic = plat.GetCoreNumAic();

    CausalReluAttentionTilingData td;
    using namespace matmul_tiling;

    // ---- stage 1: projection, split over all cube cores
    MultiCoreMatmulTiling proj(plat);
    proj.SetDim(aic);
    proj.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, false);
    proj.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, true);
    proj.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    proj.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    proj.SetShape(B * T, 3 * C, C);
    proj.SetOrgShape(B * T, 3 * C, C);
    proj.SetBias(true);
    proj.SetBufferSpace(-1, -1, -1);
    if (proj.GetTiling(td.projTiling) == -1) {
        return ge::GRAPH_FAILED;
    }

    // ---- stage 2: per-head scores, q/k rows are strided by 3C in the qkv buffer
    MatmulApiTiling score(plat);
    score.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, false);
    score.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, true);
    score.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    score.SetShape(T, T, hs);
    score.SetOrgShape(T, T, 3 * C, 3 * C);
    score.SetBias(false);
    score.SetBufferSpace(-1, -1, -1);
    if (score.GetTiling(td.scoreTiling) == -1) {
        return ge::GRAPH_FAILED;
    }

    // ---- stage 3: weighted sum of values
    MatmulApiTiling ctx(plat);
    ctx.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, false);
    ctx.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, false);
    ctx.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    ctx.SetShape(T, hs, T);
    ctx.SetOrgShape(T, 3 * C, T, T, C);
    ctx.SetBias(false);
    ctx.SetBufferSpace(-1, -1, -1);
    if (ctx.GetTiling(td.ctxTiling) == -1) {
        return ge::GRAPH_FAILED;
    }

    const uint64_t qkvBytes = AlignUp(static_cast<uint64_t>(B) * T * 3 * C * sizeof(float), ALIGN_BYTES);
    const uint64_t scoreBytesPerCore = AlignUp(static_cast<uint64_t>(T) * T * sizeof(float), ALIGN_BYTES);

    td.set_batch(B);
    td.set_seqLen(T);
    td.set_embed(C);
    td.set_numHeads(nh);
    td.set_headDim(hs);
    td.set_coreNum(aic);
    td.set_rowChunk(UB_ROW_CHUNK);
    td.set_scale(1.0f / std::sqrt(static_cast<float>(hs)));
    td.set_qkvOffset(0);
    td.set_scoreOffset(qkvBytes);

    context->SetBlockDim(aic);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    size_t *wsSizes = context->GetWorkspaceSizes(1);
    wsSizes[0] = plat.GetLibApiWorkSpaceSize() + qkvBytes + scoreBytesPerCore * aic;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
