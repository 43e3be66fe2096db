#include <cmath>
#include "memory_attention_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

using namespace matmul_tiling;

namespace optiling {
namespace {
// C[M, N] = A[M, K] * B[N, K]^T + bias[N]
bool FillLinearTiling(const platform_ascendc::PlatformAscendC &plat, uint32_t dim, uint32_t m, uint32_t n,
                      uint32_t k, TCubeTiling &out)
{
    MultiCoreMatmulTiling mt(plat);
    mt.SetDim(dim);
    mt.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    mt.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    mt.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetBiasType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetShape(m, n, k);
    mt.SetOrgShape(m, n, k);
    mt.SetBias(true);
    mt.SetBufferSpace(-1, -1, -1);
    return mt.GetTiling(out) != -1;
}
}

ge::graphStatus MemoryAttentionTilingFunc(gert::TilingContext *ctx)
{
    const gert::Shape &qs = ctx->GetInputShape(0)->GetStorageShape();   // [B, Lq, E]
    const gert::Shape &ms = ctx->GetInputShape(1)->GetStorageShape();   // [B, Lkv, E]
    const int64_t *headsAttr = ctx->GetAttrs()->GetAttrPointer<int64_t>(0);
    uint32_t batch = qs.GetDim(0), lq = qs.GetDim(1), embed = qs.GetDim(2);
    uint32_t lkv = ms.GetDim(1);
    uint32_t heads = static_cast<uint32_t>(*headsAttr);
    if (heads == 0 || embed % heads != 0 || ms.GetDim(0) != batch || ms.GetDim(2) != embed) {
        return ge::GRAPH_FAILED;
    }
    uint32_t hd = embed / heads;

    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint32_t aic = plat.GetCoreNumAic();
    uint32_t aiv = plat.GetCoreNumAiv();

    MemoryAttentionTilingData td;
    td.set_batch(batch);
    td.set_queryLen(lq);
    td.set_memLen(lkv);
    td.set_embed(embed);
    td.set_heads(heads);
    td.set_headDim(hd);
    td.set_scale(1.0f / std::sqrt(static_cast<float>(hd)));
    td.set_vecWorkers(aiv);

    if (!FillLinearTiling(plat, aiv, batch * lq, embed, embed, td.qProj) ||
        !FillLinearTiling(plat, aiv, batch * lkv, 2 * embed, embed, td.kvProj) ||
        !FillLinearTiling(plat, aiv, batch * lq, embed, embed, td.outProj)) {
        return ge::GRAPH_FAILED;
    }

    ctx->SetBlockDim(aic);  // mixed launch: one AIC + its AIVs per block
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());

    // workspace: Qp [B*Lq, E] | KVp [B*Lkv, 2E] | ctx [B*Lq, E]
    size_t userBytes = (static_cast<size_t>(batch) * lq * embed * 2 +
                        static_cast<size_t>(batch) * lkv * embed * 2) * sizeof(float);
    size_t *ws = ctx->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize() + userBytes;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
