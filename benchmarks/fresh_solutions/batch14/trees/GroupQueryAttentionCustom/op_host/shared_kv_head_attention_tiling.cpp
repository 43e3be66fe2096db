#include <cmath>
#include "shared_kv_head_attention_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus SharedKvHeadAttentionTilingFunc(gert::TilingContext *ctx)
{
    const gert::Shape &xs = ctx->GetInputShape(0)->GetStorageShape();  // [B, L, D]
    if (xs.GetDimNum() != 3) return ge::GRAPH_FAILED;
    const uint32_t heads = static_cast<uint32_t>(*ctx->GetAttrs()->GetAttrPointer<int64_t>(0));
    const uint32_t kvHeads = static_cast<uint32_t>(*ctx->GetAttrs()->GetAttrPointer<int64_t>(1));
    const uint32_t B = xs.GetDim(0), L = xs.GetDim(1), D = xs.GetDim(2);
    if (heads == 0 || kvHeads == 0 || heads % kvHeads != 0 || D % heads != 0) return ge::GRAPH_FAILED;
    const uint32_t hd = D / heads;
    // score reduction works on 64-float repeats
    if (hd % 8 != 0 || (hd > 64 && hd % 64 != 0)) return ge::GRAPH_FAILED;
    const uint32_t seqPad = (L + 7) / 8 * 8;
    // K_h, V_h, one score row and its product scratch must fit next to the weight slabs
    if (2ULL * seqPad * hd * 4 + 2ULL * seqPad * 64 * 4 > 120 * 1024) return ge::GRAPH_FAILED;

    SharedKvHeadAttentionTiling t;
    t.set_batch(B);
    t.set_seqLen(L);
    t.set_model(D);
    t.set_kvModel(hd * kvHeads);
    t.set_heads(heads);
    t.set_kvHeads(kvHeads);
    t.set_headDim(hd);
    t.set_seqPad(seqPad);
    uint32_t slab = 8 * 1024;                       // 32 KB, double buffered
    const uint32_t dPad = (D + 7) / 8 * 8;
    if (slab < dPad) slab = dPad;
    t.set_slabElems(slab);
    t.set_softmaxScale(1.0f / std::sqrt(static_cast<float>(hd)));

    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    ctx->SetBlockDim(plat.GetCoreNumAiv());
    t.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(t.GetDataSize());
    // Q, K, V and the attention context staged in GM between phases
    const uint64_t tokens = static_cast<uint64_t>(B) * L;
    ctx->GetWorkspaceSizes(1)[0] = plat.GetLibApiWorkSpaceSize() +
                                   tokens * (2ULL * D + 2ULL * t.get_kvModel()) * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
