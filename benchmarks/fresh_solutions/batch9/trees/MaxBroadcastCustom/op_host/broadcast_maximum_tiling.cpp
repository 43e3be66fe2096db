// Tiling of BroadcastMaximum: numpy-style broadcasting of two inputs, element-wise maximum.
// The output is viewed as rows of its last dimension; every row maps to one (possibly broadcast)
// row of a and of b, located through per-dimension strides that are 0 on broadcast axes.
#include "broadcast_maximum_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus BroadcastMaximumTilingFunc(gert::TilingContext *context)
{
    const gert::Shape &sa = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &sb = context->GetInputShape(1)->GetStorageShape();
    size_t rank = sa.GetDimNum() > sb.GetDimNum() ? sa.GetDimNum() : sb.GetDimNum();
    if (rank == 0 || rank > BMAX_MAX_RANK + 1) {
        return ge::GRAPH_FAILED;
    }

    // right-align both shapes to `rank`
    int64_t da[BMAX_MAX_RANK + 1], db[BMAX_MAX_RANK + 1], dout[BMAX_MAX_RANK + 1];
    for (size_t i = 0; i < rank; ++i) {
        int64_t ia = static_cast<int64_t>(i) - static_cast<int64_t>(rank - sa.GetDimNum());
        int64_t ib = static_cast<int64_t>(i) - static_cast<int64_t>(rank - sb.GetDimNum());
        da[i] = ia >= 0 ? sa.GetDim(ia) : 1;
        db[i] = ib >= 0 ? sb.GetDim(ib) : 1;
        if (da[i] != db[i] && da[i] != 1 && db[i] != 1) {
            return ge::GRAPH_FAILED;
        }
        dout[i] = da[i] > db[i] ? da[i] : db[i];
    }

    // contiguous strides of the inputs, zeroed on broadcast axes
    uint64_t strideA[BMAX_MAX_RANK + 1], strideB[BMAX_MAX_RANK + 1];
    uint64_t accA = 1, accB = 1;
    for (int64_t i = static_cast<int64_t>(rank) - 1; i >= 0; --i) {
        strideA[i] = (da[i] == 1) ? 0 : accA;
        strideB[i] = (db[i] == 1) ? 0 : accB;
        accA *= static_cast<uint64_t>(da[i]);
        accB *= static_cast<uint64_t>(db[i]);
    }

    BroadcastMaximumTilingData td;
    uint32_t outerShape[BMAX_MAX_RANK] = {0};
    uint64_t aStr[BMAX_MAX_RANK] = {0}, bStr[BMAX_MAX_RANK] = {0};
    uint64_t outerRows = 1;
    for (size_t i = 0; i + 1 < rank; ++i) {
        outerShape[i] = static_cast<uint32_t>(dout[i]);
        aStr[i] = strideA[i];
        bStr[i] = strideB[i];
        outerRows *= static_cast<uint64_t>(dout[i]);
    }
    td.set_outerRank(static_cast<uint32_t>(rank - 1));
    td.set_outerShape(outerShape);
    td.set_aStride(aStr);
    td.set_bStride(bStr);
    td.set_innerLen(static_cast<uint32_t>(dout[rank - 1]));
    td.set_aInnerBcast(da[rank - 1] == 1 && dout[rank - 1] != 1 ? 1 : 0);
    td.set_bInnerBcast(db[rank - 1] == 1 && dout[rank - 1] != 1 ? 1 : 0);
    td.set_outerRows(outerRows);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t cores = plat.GetCoreNumAiv();
    uint64_t rowsPerCore = (outerRows + cores - 1) / cores;
    td.set_rowsPerCore(rowsPerCore);
    uint32_t tile = 8192;   // elements; 3 double-buffered queues of fp32 stay under 192 KB
    uint32_t inner = static_cast<uint32_t>(dout[rank - 1]);
    if (inner < tile) {
        tile = (inner + 63) / 64 * 64;
    }
    td.set_tileLen(tile);

    context->SetBlockDim(static_cast<uint32_t>((outerRows + rowsPerCore - 1) / rowsPerCore));
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}
