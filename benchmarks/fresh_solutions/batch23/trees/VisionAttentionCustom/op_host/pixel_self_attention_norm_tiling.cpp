#include "pixel_self_attention_norm_tiling.h"
#include <cmath>
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

using namespace matmul_tiling;

namespace optiling {
namespace {
constexpr uint32_t Q_BLOCK = 64;
constexpr uint32_t TOK_BLOCK = 64;
constexpr uint32_t SOFTMAX_CHUNK = 4096;

bool MakeTiling(const platform_ascendc::PlatformAscendC &plat, TCubeTiling &out, int m, int n, int k,
                int orgM, int orgN, int orgKa, int orgKb, bool transA, bool transB, bool bias)
{
    MatmulApiTiling t(plat);
    t.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, transA);
    t.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, transB);
    t.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    if (bias) {
        t.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    }
    t.SetBias(bias);
    t.SetShape(m, n, k);
    t.SetOrgShape(orgM, orgN, orgKa, orgKb);
    t.SetBufferSpace(-1, -1, -1);
    return t.GetTiling(out) != -1;
}
}  // namespace

ge::graphStatus PixelSelfAttentionNormTiling(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();   // [B, C, H, W]
    if (xs.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    const auto *attrs = context->GetAttrs();
    int64_t heads = *attrs->GetAttrPointer<int64_t>(0);
    float eps = *attrs->GetAttrPointer<float>(1);

    uint32_t b = xs.GetDim(0);
    uint32_t c = xs.GetDim(1);
    uint32_t l = xs.GetDim(2) * xs.GetDim(3);
    if (heads <= 0 || c % heads != 0 || l % 8 != 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t hd = c / static_cast<uint32_t>(heads);
    uint32_t cores = plat.GetCoreNumAic();

    PixelSelfAttentionNormTilingData td;
    uint32_t projRows = (l + cores - 1) / cores;
    projRows = (projRows + 15) / 16 * 16;
    uint32_t qB = l < Q_BLOCK ? l : Q_BLOCK;
    // keep the two [C, tB] fp32 tiles of stage 3 within ~64KB of UB
    uint32_t tB = TOK_BLOCK;
    while (tB > 8 && c * tB * 4 * 2 > 64 * 1024) {
        tB /= 2;
    }
    tB = l < tB ? l : tB;

    int L = static_cast<int>(l), C = static_cast<int>(c), HD = static_cast<int>(hd);
    // stage 1: tokens^T (x stored [C, L]) times in_proj^T ([3C, C] stored) -> qkv [L, 3C]
    if (!MakeTiling(plat, td.projTiling, projRows, 3 * C, C, L, 3 * C, C, C, true, true, true)) {
        return ge::GRAPH_FAILED;
    }
    // stage 2a: Q_h [qB, hd] (row stride 3C) times K_h^T -> scores [qB, L]
    if (!MakeTiling(plat, td.scoreTiling, qB, L, HD, L, L, 3 * C, 3 * C, false, true, false)) {
        return ge::GRAPH_FAILED;
    }
    // stage 2b: probs [qB, L] times V_h [L, hd] (row stride 3C) -> context written over Q_h
    if (!MakeTiling(plat, td.ctxTiling, qB, HD, L, L, 3 * C, L, L, false, false, false)) {
        return ge::GRAPH_FAILED;
    }
    // stage 3: out_proj [C, C] times context^T -> z [C, tB] written straight into y (row stride L)
    if (!MakeTiling(plat, td.outTiling, C, tB, C, C, L, C, 3 * C, false, true, false)) {
        return ge::GRAPH_FAILED;
    }

    td.set_batch(b);
    td.set_embed(c);
    td.set_seqLen(l);
    td.set_heads(static_cast<uint32_t>(heads));
    td.set_headDim(hd);
    td.set_projRowsPerCore(projRows);
    td.set_qBlock(qB);
    td.set_qBlocks((l + qB - 1) / qB);
    td.set_softmaxChunk(l < SOFTMAX_CHUNK ? l : SOFTMAX_CHUNK);
    td.set_tokBlock(tB);
    td.set_coreNum(cores);
    td.set_scale(1.0f / std::sqrt(static_cast<float>(hd)));
    td.set_eps(eps);

    context->SetBlockDim(cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    // workspace: qkv [B, L, 3C] + per-core score block [qB, L]
    size_t qkvBytes = static_cast<size_t>(b) * l * 3 * c * sizeof(float);
    size_t scoreBytes = static_cast<size_t>(cores) * qB * l * sizeof(float);
    context->GetWorkspaceSizes(1)[0] = qkvBytes + scoreBytes + plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
