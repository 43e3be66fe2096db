#include "tensor_offset_add_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static inline uint64_t CeilDivU64(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

ge::graphStatus TensorOffsetAddTilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &bs = context->GetInputShape(1)->GetStorageShape();
    const uint64_t total = xs.GetShapeSize();
    const uint64_t biasCount = bs.GetShapeSize();
    const uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    const uint32_t align = 32 / typeSize;

    uint32_t cores = plat.GetCoreNumAiv();
    cores = cores == 0 ? 1 : cores;

    // x in/out double buffered + a row of the offset (row mode) -> five slices
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t tile = static_cast<uint32_t>((ub - 8 * 1024) / 5 / typeSize) / align * align;

    TensorOffsetAddTilingData td;
    td.set_totalElems(total);

    if (biasCount <= 1) {
        context->SetTilingKey(OFFSET_KEY_SCALAR);
        uint64_t per = CeilDivU64(CeilDivU64(total, cores), align) * align;
        if (per == 0) {
            per = align;
        }
        td.set_elemsPerCore(per);
        td.set_tileElems(static_cast<uint32_t>(per < tile ? per : tile));
        td.set_rowLen(1);
        td.set_rowsPerTile(0);
        cores = static_cast<uint32_t>(CeilDivU64(total, per));
    } else {
        const uint32_t row = static_cast<uint32_t>(xs.GetDim(xs.GetDimNum() - 1));
        if (biasCount != row) {
            return ge::GRAPH_FAILED; // only scalar or trailing-dim offsets are handled
        }
        const uint32_t rowAligned = (row + align - 1) / align * align;
        if (rowAligned > tile) {
            return ge::GRAPH_FAILED;
        }
        context->SetTilingKey(OFFSET_KEY_ROW);
        const uint64_t rows = total / row;
        uint64_t rowsPerCore = CeilDivU64(rows, cores);
        td.set_elemsPerCore(rowsPerCore * row);
        td.set_rowLen(row);
        uint32_t rpt = tile / rowAligned;
        if (rpt > rowsPerCore) {
            rpt = static_cast<uint32_t>(rowsPerCore);
        }
        td.set_rowsPerTile(rpt);
        td.set_tileElems(rpt * rowAligned);
        cores = static_cast<uint32_t>(CeilDivU64(rows, rowsPerCore));
    }
    context->SetBlockDim(cores == 0 ? 1 : cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}
