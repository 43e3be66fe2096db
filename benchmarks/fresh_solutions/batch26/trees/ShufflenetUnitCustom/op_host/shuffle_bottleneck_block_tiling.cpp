#include "shuffle_bottleneck_block_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t UB_RESERVED = 16 * 1024;
constexpr uint32_t GUARD = 16;    // keeps the +-1 shifted row reads of the depthwise stage in bounds
}

ge::graphStatus ShuffleBottleneckBlockTiling(gert::TilingContext *context)
{
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();     // [N, Cin, H, W]
    const gert::Shape &w1s = context->GetInputShape(1)->GetStorageShape();    // [Cmid, Cin/g, 1, 1]
    const gert::Shape &w3s = context->GetInputShape(7)->GetStorageShape();    // [Cout, Cmid/g, 1, 1]
    if (xs.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t cmid = w1s.GetDim(0);
    uint32_t cout = w3s.GetDim(0);

    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    uint32_t groups = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    if (groups == 0 || cin % groups || cmid % groups || cout % groups) {
        return ge::GRAPH_FAILED;
    }
    bool proj = context->GetOptionalInputShape(10) != nullptr;
    if (!proj && cin != cout) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t cores = plat.GetCoreNumAiv();

    // 1x1 stages keep one group's accumulators (cpg x pixTile) plus 2 input and 1 output tile.
    uint32_t maxCpg = cmid / groups > cout / groups ? cmid / groups : cout / groups;
    uint32_t budget = static_cast<uint32_t>((ub - UB_RESERVED) / sizeof(float));
    uint32_t hw = h * w;
    uint32_t pix = budget / (maxCpg + 4);
    pix = pix / 64 * 64;
    uint32_t hwAligned = (hw + 7) / 8 * 8;
    if (pix > hwAligned) {
        pix = hwAligned;
    }
    if (pix == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rowStride = (w + 7) / 8 * 8;
    if (rowStride * 10 > budget) {      // depthwise stage: 9 shifted rows + one output row
        return ge::GRAPH_FAILED;
    }

    ShuffleBottleneckBlockTilingData td;
    td.set_batch(n);
    td.set_inCh(cin);
    td.set_midCh(cmid);
    td.set_outCh(cout);
    td.set_height(h);
    td.set_width(w);
    td.set_groups(groups);
    td.set_hasProjection(proj ? 1 : 0);
    td.set_pixTile(pix);
    td.set_tilesPerImage((hw + pix - 1) / pix);
    td.set_rowStride(rowStride);
    td.set_wsGuard(GUARD);

    context->SetBlockDim(cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    // two intermediate activations: after conv1/BN/ReLU and after depthwise/BN/shuffle
    size_t plane = static_cast<size_t>(n) * cmid * hw + 2 * GUARD;
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 2 * plane * sizeof(float) + plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
