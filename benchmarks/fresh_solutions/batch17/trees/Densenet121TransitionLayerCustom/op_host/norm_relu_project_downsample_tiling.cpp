#include "norm_relu_project_downsample_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static inline uint32_t Up8(uint32_t v) { return (v + 7) / 8 * 8; }

ge::graphStatus NormReluProjectDownsampleTiling(gert::TilingContext *context)
{
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &ws = context->GetInputShape(3)->GetStorageShape();
    if (xs.GetDimNum() != 4 || ws.GetDim(1) != xs.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t n = xs.GetDim(0), cin = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    const uint32_t cout = ws.GetDim(0);
    const uint32_t oh = h / 2, ow = w / 2;
    if (oh == 0 || ow == 0) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    const uint64_t budget = ub - 16 * 1024;  // scale/shift tables, scratch

    // segment of pooled columns: pooled block for all input channels + 2 input row pairs (x2 buffers)
    uint32_t seg = ow;
    auto need = [&](uint32_t s) -> uint64_t {
        return (static_cast<uint64_t>(cin) * Up8(s) + 2ULL * 2 * Up8(2 * s) + 2ULL * Up8(s)) * sizeof(float);
    };
    while (seg > 8 && need(seg) > budget / 2) {
        seg = (seg + 1) / 2;
    }
    // remaining half of UB: output rows + weight rows of one channel chunk (double-buffered output)
    const uint64_t perCo = (2ULL * Up8(seg) + Up8(cin)) * sizeof(float);
    uint32_t coChunk = static_cast<uint32_t>((budget / 2) / perCo);
    coChunk = coChunk == 0 ? 1 : (coChunk > cout ? cout : coChunk);

    NormReluProjectDownsampleTilingData td;
    td.set_batch(n);
    td.set_inC(cin);
    td.set_outC(cout);
    td.set_height(h);
    td.set_width(w);
    td.set_outH(oh);
    td.set_outW(ow);
    td.set_segOut(seg);
    td.set_segNum((ow + seg - 1) / seg);
    td.set_coChunk(coChunk);
    td.set_statChunk(16 * 1024);
    td.set_epsilon(*context->GetAttrs()->GetFloat(0));

    context->SetBlockDim(plat.GetCoreNumAiv());
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    // user workspace: per-channel scale and shift; plus the system area
    size_t *wsz = context->GetWorkspaceSizes(1);
    wsz[0] = plat.GetLibApiWorkSpaceSize() + 2ULL * Up8(cin) * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
