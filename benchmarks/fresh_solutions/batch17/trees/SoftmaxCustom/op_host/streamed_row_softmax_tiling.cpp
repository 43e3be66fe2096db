#include "streamed_row_softmax_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus StreamedRowSoftmaxTiling(gert::TilingContext *ctx)
{
    const gert::Shape &shape = ctx->GetInputShape(0)->GetStorageShape();
    const size_t rank = shape.GetDimNum();
    if (rank == 0) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t cols = static_cast<uint32_t>(shape.GetDim(rank - 1));
    const uint32_t rows = static_cast<uint32_t>(shape.GetShapeSize() / (cols == 0 ? 1 : cols));

    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint64_t ubBytes = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubBytes);
    const uint32_t elemSize = ctx->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    // UB per chunk element: in queue x2, out queue x2 (input dtype) + two float work buffers
    const uint32_t perElem = 4 * elemSize + 2 * sizeof(float);
    uint32_t chunk = static_cast<uint32_t>((ubBytes - 4096) / perElem) / 64 * 64;
    chunk = chunk > 8192 ? 8192 : chunk;
    const uint32_t colsUp = (cols + 63) / 64 * 64;
    if (colsUp < chunk) {
        chunk = colsUp;  // whole row resident: single pass over GM for the statistics
    }

    uint32_t cores = plat.GetCoreNumAiv();
    if (rows < cores) {
        cores = rows == 0 ? 1 : rows;
    }
    StreamedRowSoftmaxTilingData td;
    td.set_rows(rows);
    td.set_cols(cols);
    td.set_chunk(chunk);
    td.set_rowsPerCore(rows / cores);
    td.set_extraRows(rows % cores);
    ctx->SetBlockDim(cores);
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());
    ctx->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
