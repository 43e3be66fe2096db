#include "window_max_pool_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus WindowMaxPoolTilingFunc(gert::TilingContext *context)
{
    auto ascend = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape &shape = context->GetInputShape(0)->GetStorageShape();
    if (shape.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    auto attrs = context->GetAttrs();
    int64_t k = *attrs->GetAttrPointer<int64_t>(0);
    const int64_t *sPtr = attrs->GetAttrPointer<int64_t>(1);
    int64_t s = (sPtr == nullptr || *sPtr <= 0) ? k : *sPtr;   // stride defaults to the window
    int64_t p = *attrs->GetAttrPointer<int64_t>(2);
    if (k <= 0 || p < 0 || 2 * p > k) {
        return ge::GRAPH_FAILED;    // same restriction as the framework: pad <= window / 2
    }

    int64_t h = shape.GetDim(2);
    int64_t w = shape.GetDim(3);
    int64_t oh = (h + 2 * p - k) / s + 1;
    int64_t ow = (w + 2 * p - k) / s + 1;
    if (oh <= 0 || ow <= 0) {
        return ge::GRAPH_FAILED;
    }

    uint32_t bytes = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    uint32_t perBlk = 32 / bytes;
    auto roundUp = [perBlk](int64_t v) { return static_cast<uint32_t>((v + perBlk - 1) / perBlk * perBlk); };

    WindowMaxPoolTilingData tiling;
    tiling.set_planes(static_cast<uint32_t>(shape.GetDim(0) * shape.GetDim(1)));
    tiling.set_inH(static_cast<uint32_t>(h));
    tiling.set_inW(static_cast<uint32_t>(w));
    tiling.set_outH(static_cast<uint32_t>(oh));
    tiling.set_outW(static_cast<uint32_t>(ow));
    tiling.set_win(static_cast<uint32_t>(k));
    tiling.set_step(static_cast<uint32_t>(s));
    tiling.set_pad(static_cast<uint32_t>(p));
    uint32_t lead = roundUp(p);
    int64_t reach = lead - p + (ow - 1) * s + k;           // furthest index a window touches
    int64_t body = lead + w;
    tiling.set_lead(lead);
    tiling.set_rowLen(roundUp(reach > body ? reach : body));
    tiling.set_outWPad(roundUp(ow));

    uint64_t totalRows = static_cast<uint64_t>(tiling.get_planes()) * oh;
    uint32_t cores = ascend.GetCoreNumAiv();
    if (totalRows < cores) {
        cores = static_cast<uint32_t>(totalRows);
    }
    tiling.set_rowsPerCore(static_cast<uint32_t>(totalRows / cores));
    tiling.set_extraRows(static_cast<uint32_t>(totalRows % cores));
    context->SetBlockDim(cores);

    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
