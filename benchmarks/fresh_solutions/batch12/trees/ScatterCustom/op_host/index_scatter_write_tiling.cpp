// IndexScatterWrite tiling: cores split the outer (pre-`dim`) slices; each slice is processed in
// UB windows so that arbitrarily long axes are handled.
#include "index_scatter_write_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus IndexScatterWriteTilingFunc(gert::TilingContext *context)
{
    const gert::Shape &self = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &idx = context->GetInputShape(1)->GetStorageShape();
    int64_t rank = static_cast<int64_t>(self.GetDimNum());
    int64_t dim = *context->GetAttrs()->GetAttrPointer<int64_t>(0);
    if (dim < 0) {
        dim += rank;
    }
    if (dim < 0 || dim >= rank || idx.GetDimNum() != self.GetDimNum()) {
        return ge::GRAPH_FAILED;
    }
    // this kernel requires index/src to agree with self outside of `dim`
    uint64_t outer = 1, inner = 1;
    for (int64_t i = 0; i < rank; ++i) {
        if (i != dim && idx.GetDim(i) != self.GetDim(i)) {
            return ge::GRAPH_FAILED;
        }
        if (i < dim) {
            outer *= self.GetDim(i);
        } else if (i > dim) {
            inner *= self.GetDim(i);
        }
    }

    uint32_t dataSize = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
    uint64_t slab = static_cast<uint64_t>(self.GetDim(dim)) * inner;
    // 64 KB for the window, 32 KB each for the streamed index / src chunks
    uint64_t window = (64 * 1024) / dataSize;
    if (slab < window) {
        window = (slab + 15) / 16 * 16;
    }
    uint32_t idxChunk = 4096;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    cores = cores == 0 ? 1 : cores;
    uint32_t perCore = static_cast<uint32_t>((outer + cores - 1) / cores);
    perCore = perCore == 0 ? 1 : perCore;
    uint32_t used = static_cast<uint32_t>((outer + perCore - 1) / perCore);

    IndexScatterWriteTilingData td;
    td.set_outer(static_cast<uint32_t>(outer));
    td.set_axisLen(static_cast<uint32_t>(self.GetDim(dim)));
    td.set_inner(static_cast<uint32_t>(inner));
    td.set_idxAxisLen(static_cast<uint32_t>(idx.GetDim(dim)));
    td.set_windowLen(static_cast<uint32_t>(window));
    td.set_idxChunk(idxChunk);
    td.set_outerPerCore(perCore);

    context->SetBlockDim(used == 0 ? 1 : used);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
