/*
 * Tiling for BcastProduct (numpy-style broadcasting multiply).
 *
 * Both inputs are right-aligned to the output rank. The last output dimension is the unit that
 * is streamed through UB; every other dimension becomes a "row" index that is decoded on the
 * device with per-input strides (stride 0 where the input is broadcast).
 */
#include "bcast_product_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static const uint32_t TILE_BYTES = 16 * 1024;   // per buffer; 3 queues x 2 slots fit comfortably

ge::graphStatus BcastProductTilingFunc(gert::TilingContext *context)
{
    const gert::Shape &sa = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &sb = context->GetInputShape(1)->GetStorageShape();
    size_t rank = sa.GetDimNum() > sb.GetDimNum() ? sa.GetDimNum() : sb.GetDimNum();
    if (rank == 0) {
        rank = 1;
    }
    if (rank > BCAST_MAX_RANK + 1) {
        return ge::GRAPH_FAILED;
    }

    // right-align both shapes
    uint32_t da[16], db[16], dout[16];
    for (size_t i = 0; i < rank; ++i) {
        int64_t ia = static_cast<int64_t>(i) - static_cast<int64_t>(rank - sa.GetDimNum());
        int64_t ib = static_cast<int64_t>(i) - static_cast<int64_t>(rank - sb.GetDimNum());
        da[i] = ia < 0 ? 1U : static_cast<uint32_t>(sa.GetDim(ia));
        db[i] = ib < 0 ? 1U : static_cast<uint32_t>(sb.GetDim(ib));
        if (da[i] != db[i] && da[i] != 1 && db[i] != 1) {
            return ge::GRAPH_FAILED;
        }
        dout[i] = da[i] > db[i] ? da[i] : db[i];
    }

    // contiguous strides of each input in its own (aligned) shape
    uint32_t strA[16], strB[16];
    uint32_t accA = 1, accB = 1;
    for (int64_t i = static_cast<int64_t>(rank) - 1; i >= 0; --i) {
        strA[i] = da[i] == 1 ? 0 : accA;
        strB[i] = db[i] == 1 ? 0 : accB;
        accA *= da[i];
        accB *= db[i];
    }

    BcastProductTilingData td;
    uint32_t outerDims[BCAST_MAX_RANK] = {0};
    uint32_t aStr[BCAST_MAX_RANK] = {0};
    uint32_t bStr[BCAST_MAX_RANK] = {0};
    uint32_t rows = 1;
    for (size_t i = 0; i + 1 < rank; ++i) {
        outerDims[i] = dout[i];
        aStr[i] = strA[i];
        bStr[i] = strB[i];
        rows *= dout[i];
    }
    uint32_t inner = dout[rank - 1];

    auto dtype = context->GetInputDesc(0)->GetDataType();
    uint32_t elem = (dtype == ge::DT_FLOAT16) ? 2 : 4;
    uint32_t tileLen = TILE_BYTES / elem;
    uint32_t innerAligned = (inner * elem + 31) / 32 * 32 / elem;
    if (innerAligned < tileLen) {
        tileLen = innerAligned;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (rows < cores) {
        cores = rows == 0 ? 1 : rows;
    }

    td.set_outerRank(static_cast<uint32_t>(rank - 1));
    td.set_outerDims(outerDims);
    td.set_aStrides(aStr);
    td.set_bStrides(bStr);
    td.set_innerLen(inner);
    td.set_aInnerBcast(da[rank - 1] == 1 && inner != 1 ? 1 : 0);
    td.set_bInnerBcast(db[rank - 1] == 1 && inner != 1 ? 1 : 0);
    td.set_rowCount(rows);
    td.set_rowsPerCore(rows / cores);
    td.set_rowsRemainder(rows % cores);
    td.set_tileLen(tileLen);

    context->SetBlockDim(cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
