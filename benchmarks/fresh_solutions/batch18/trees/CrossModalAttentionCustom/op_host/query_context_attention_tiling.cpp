#include <cmath>
#include "query_context_attention_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t MAX_FEATURE = 1024;          // bound on any linear in/out width
constexpr uint32_t WEIGHT_STAGE_BYTES = 48 * 1024;
constexpr uint32_t ATTN_UB_BYTES = 120 * 1024;  // K/V head slices + score slots
}

ge::graphStatus QueryContextAttentionTilingFunc(gert::TilingContext *context)
{
    auto qs = context->GetInputShape(0)->GetStorageShape();   // [B, Lq, Dq]
    auto cs = context->GetInputShape(1)->GetStorageShape();   // [B, Lk, Dc]
    auto wq = context->GetInputShape(2)->GetStorageShape();   // [E, Dq]
    if (qs.GetDimNum() != 3 || cs.GetDimNum() != 3 || qs.GetDim(0) != cs.GetDim(0)) {
        return ge::GRAPH_FAILED;
    }
    const int64_t *headsAttr = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    uint32_t heads = headsAttr == nullptr ? 1 : static_cast<uint32_t>(*headsAttr);

    uint32_t b = qs.GetDim(0), lq = qs.GetDim(1), dq = qs.GetDim(2);
    uint32_t lk = cs.GetDim(1), dc = cs.GetDim(2);
    uint32_t e = wq.GetDim(0);
    if (heads == 0 || e % heads != 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t hd = e / heads;
    // rows are moved as whole 32B blocks: keep every width a multiple of 8 floats
    if (dq % 8 || dc % 8 || e % 8 || hd % 8 || dq > MAX_FEATURE || dc > MAX_FEATURE || e > MAX_FEATURE) {
        return ge::GRAPH_FAILED;
    }
    if (2ULL * lk * hd * sizeof(float) + lk * 32ULL + 4ULL * lk * sizeof(float) > ATTN_UB_BYTES) {
        return ge::GRAPH_FAILED;
    }
    uint32_t maxIn = dq > dc ? dq : dc;
    maxIn = maxIn > e ? maxIn : e;
    uint32_t wRows = WEIGHT_STAGE_BYTES / (maxIn * sizeof(float));

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();

    QueryContextAttentionTilingData td;
    td.set_batch(b);
    td.set_qLen(lq);
    td.set_kvLen(lk);
    td.set_qDim(dq);
    td.set_ctxDim(dc);
    td.set_embed(e);
    td.set_heads(heads);
    td.set_headDim(hd);
    td.set_weightRowsPerLoad(wRows);
    td.set_coreNum(cores);
    td.set_softmaxScale(1.0f / std::sqrt(static_cast<float>(hd)));

    context->SetBlockDim(cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    // intermediates: projected query (2x), projected context, K, V, attention context
    uint64_t qElems = static_cast<uint64_t>(b) * lq * e;
    uint64_t kElems = static_cast<uint64_t>(b) * lk * e;
    uint64_t user = (3 * qElems + 3 * kElems) * sizeof(float);
    context->GetWorkspaceSizes(1)[0] = plat.GetLibApiWorkSpaceSize() + user;
    return ge::GRAPH_SUCCESS;
}
}
