#include "select_broadcast_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
// right-align `s` against the output rank and derive broadcast-aware strides
bool OperandStrides(const gert::Shape& s, const uint32_t* outDims, uint32_t rank, uint32_t* stride, bool& dense)
{
    uint32_t r = static_cast<uint32_t>(s.GetDimNum());
    if (r > rank) return false;
    uint32_t acc = 1;
    dense = (r == rank);
    for (int32_t i = static_cast<int32_t>(rank) - 1; i >= 0; --i) {
        int32_t si = i - static_cast<int32_t>(rank - r);
        uint32_t d = si >= 0 ? static_cast<uint32_t>(s.GetDim(si)) : 1U;
        if (d == outDims[i]) {
            stride[i] = (d == 1) ? 0 : acc;
        } else if (d == 1) {
            stride[i] = 0;
            dense = false;
        } else {
            return false;
        }
        acc *= d;
    }
    return true;
}
}  // namespace

ge::graphStatus SelectBroadcastTilingFunc(gert::TilingContext* context)
{
    const gert::Shape& cs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& xs = context->GetInputShape(1)->GetStorageShape();
    const gert::Shape& ys = context->GetInputShape(2)->GetStorageShape();
    const gert::Shape& os = context->GetOutputShape(0)->GetStorageShape();

    uint32_t rank = static_cast<uint32_t>(os.GetDimNum());
    if (rank == 0 || rank > SELECT_BCAST_MAX_DIMS) return ge::GRAPH_FAILED;
    uint32_t outDims[SELECT_BCAST_MAX_DIMS] = {1, 1, 1, 1, 1, 1, 1, 1};
    for (uint32_t i = 0; i < rank; ++i) outDims[i] = static_cast<uint32_t>(os.GetDim(i));

    uint32_t cst[SELECT_BCAST_MAX_DIMS] = {0}, xst[SELECT_BCAST_MAX_DIMS] = {0}, yst[SELECT_BCAST_MAX_DIMS] = {0};
    bool cd = false, xd = false, yd = false;
    if (!OperandStrides(cs, outDims, rank, cst, cd) || !OperandStrides(xs, outDims, rank, xst, xd) ||
        !OperandStrides(ys, outDims, rank, yst, yd)) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores == 0) cores = 1;

    uint32_t elem = context->GetInputDesc(1)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    // per element: x, y, out double-buffered + cond u8 (x2) + cond half + mask bits
    uint64_t perElem = 2ULL * 3 * elem + 2 + 2 + 1;
    uint64_t maxElems = (ub - 16 * 1024) / perElem / 64 * 64;

    uint32_t rowLen = outDims[rank - 1];
    uint32_t colChunk = rowLen;
    if (colChunk > maxElems) colChunk = static_cast<uint32_t>(maxElems);
    uint32_t pitch = (colChunk + 63) / 64 * 64;
    uint32_t rowsPerTile = static_cast<uint32_t>(maxElems / pitch);
    if (rowsPerTile == 0) rowsPerTile = 1;
    if (rowsPerTile > 4095) rowsPerTile = 4095;   // DMA blockCount limit

    uint32_t totalRows = 1;
    for (uint32_t i = 0; i + 1 < rank; ++i) totalRows *= outDims[i];
    uint32_t used = totalRows < cores ? totalRows : cores;
    if (used == 0) used = 1;
    uint32_t per = (totalRows + used - 1) / used;
    used = (totalRows + per - 1) / per;

    SelectBroadcastTilingData td;
    td.set_rank(rank);
    td.set_outDims(outDims);
    td.set_condStride(cst);
    td.set_xStride(xst);
    td.set_yStride(yst);
    td.set_condDense(cd ? 1 : 0);
    td.set_xDense(xd ? 1 : 0);
    td.set_yDense(yd ? 1 : 0);
    td.set_rowLen(rowLen);
    td.set_colChunk(colChunk);
    td.set_pitch(pitch);
    td.set_rowsPerTile(rowsPerTile);
    td.set_totalRows(totalRows);
    td.set_rowsPerCore(per);

    context->SetBlockDim(used);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
