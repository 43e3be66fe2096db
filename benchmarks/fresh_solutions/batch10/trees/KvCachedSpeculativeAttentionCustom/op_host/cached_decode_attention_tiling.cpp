#include <cmath>
#include "cached_decode_attention_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
static inline uint32_t Align8(uint32_t a) { return (a + 7) / 8 * 8; }

ge::graphStatus CachedDecodeAttentionTilingFunc(gert::TilingContext *ctx)
{
    auto qs = ctx->GetInputShape(0)->GetStorageShape();
    auto ks = ctx->GetInputShape(1)->GetStorageShape();
    auto vs = ctx->GetInputShape(2)->GetStorageShape();
    if (qs.GetDimNum() != 3 || ks.GetDimNum() != 3 || vs.GetDimNum() != 3) {
        return ge::GRAPH_FAILED;
    }
    uint32_t B = qs.GetDim(0);
    uint32_t Sq = qs.GetDim(1);
    uint32_t D = qs.GetDim(2);
    uint32_t Skv = ks.GetDim(1);
    uint32_t Dv = vs.GetDim(2);
    if (ks.GetDim(0) != B || vs.GetDim(0) != B || ks.GetDim(2) != D || vs.GetDim(1) != Skv || Skv == 0) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);

    // UB usage per core (floats): q + tmp + 2*k + 2*v + acc, plus score scratch.
    uint64_t vecBytes = (uint64_t)(4 * Align8(D) + 2 * Align8(Dv) + Align8(Dv)) * sizeof(float);
    if (vecBytes + 16 * 1024 > ub) {
        return ge::GRAPH_FAILED;  // head dim too large for a single-row resident layout
    }
    uint32_t kvTile = 64;

    // Flash-decoding style split: enough (row, chunk) work items to fill every core.
    uint32_t rows = B * Sq;
    uint32_t kvSplit = 1;
    if (rows < cores) {
        kvSplit = CeilDiv(cores, rows);
    }
    if (kvSplit > 64) {
        kvSplit = 64;  // kernel keeps per-chunk (m, l) for at most 64 chunks in UB
    }
    // never make a chunk shorter than one kv tile
    uint32_t maxSplit = CeilDiv(Skv, kvTile);
    if (kvSplit > maxSplit) {
        kvSplit = maxSplit;
    }
    uint32_t kvPerSplit = CeilDiv(Skv, kvSplit);
    kvSplit = CeilDiv(Skv, kvPerSplit);

    float scale = 1.0f / std::sqrt(static_cast<float>(D));
    const gert::RuntimeAttrs *attrs = ctx->GetAttrs();
    if (attrs != nullptr) {
        const float *s = attrs->GetAttrPointer<float>(0);
        if (s != nullptr && *s > 0.0f) {
            scale = *s;
        }
    }

    uint32_t work = rows * kvSplit;
    uint32_t blockDim = work < cores ? work : cores;

    CachedDecodeAttentionTiling t;
    t.set_batch(B);
    t.set_qLen(Sq);
    t.set_kvLen(Skv);
    t.set_headDim(D);
    t.set_valueDim(Dv);
    t.set_kvSplit(kvSplit);
    t.set_kvPerSplit(kvPerSplit);
    t.set_kvTile(kvTile);
    t.set_partStride(Align8(Dv) + 8);
    t.set_scale(scale);

    ctx->SetBlockDim(blockDim);
    t.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(t.GetDataSize());

    // workspace: system part + one partial record per (row, split)
    size_t *ws = ctx->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize() + (size_t)work * t.get_partStride() * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
