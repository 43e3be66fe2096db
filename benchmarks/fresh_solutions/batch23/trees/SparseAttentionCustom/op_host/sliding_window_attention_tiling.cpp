#include <cmath>
#include "sliding_window_attention_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus SlidingWindowAttentionTilingFunc(gert::TilingContext* context)
{
    auto q = context->GetInputShape(0)->GetStorageShape();   // (B, S, E)
    const auto* attrs = context->GetAttrs();
    const int64_t heads = *attrs->GetAttrPointer<int64_t>(0);
    const int64_t window = *attrs->GetAttrPointer<int64_t>(1);
    uint32_t B = q.GetDim(0), S = q.GetDim(1), E = q.GetDim(2);
    if (heads <= 0 || window <= 0 || E % heads != 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t dh = E / static_cast<uint32_t>(heads);
    uint32_t w = static_cast<uint32_t>(window);
    if (dh % 8 != 0 || 2 * w > 255) {
        return ge::GRAPH_FAILED;   // rows must be 32B aligned; one reduce call handles <= 255 keys
    }

    // K band + V band (bandRows x dh each) must fit next to the per-query scratch
    const uint32_t budget = 160 * 1024 / sizeof(float);
    uint32_t scratch = 2 * w * dh + 4 * dh + 4 * 256;
    uint32_t qb = 64;
    while (qb > 1 && (2 * (qb + 2 * w - 1) * dh + scratch > budget || qb + 2 * w - 1 > 255)) {
        qb >>= 1;
    }
    if (qb > S) {
        qb = S;
    }
    uint32_t blocksPerSeq = (S + qb - 1) / qb;
    uint32_t tasks = B * static_cast<uint32_t>(heads) * blocksPerSeq;

    SlidingWindowAttentionTilingData td;
    td.set_batch(B);
    td.set_seqLen(S);
    td.set_embed(E);
    td.set_heads(static_cast<uint32_t>(heads));
    td.set_headDim(dh);
    td.set_window(w);
    td.set_queryBlock(qb);
    td.set_bandRows(qb + 2 * w - 1);
    td.set_keysPerQuery(2 * w);
    td.set_blocksPerSeq(blocksPerSeq);
    td.set_taskNum(tasks);
    td.set_scale(1.0f / std::sqrt(static_cast<float>(dh)));

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    context->SetBlockDim(tasks < cores ? tasks : cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}
