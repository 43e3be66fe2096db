#include "axis_mean_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static constexpr uint32_t KEY_LAST_AXIS = 1;   // inner == 1: reduce a contiguous run
static constexpr uint32_t KEY_MID_AXIS = 2;    // inner > 1: column-wise accumulate

ge::graphStatus AxisMeanTilingFunc(gert::TilingContext* context)
{
    const auto& shape = context->GetInputShape(0)->GetStorageShape();
    const int64_t rank = static_cast<int64_t>(shape.GetDimNum());
    const int64_t* dimPtr = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    int64_t dim = dimPtr ? *dimPtr : 0;
    if (dim < 0) dim += rank;
    if (rank == 0 || dim < 0 || dim >= rank) {
        return ge::GRAPH_FAILED;
    }

    uint64_t outer = 1, inner = 1;
    for (int64_t i = 0; i < dim; ++i) outer *= static_cast<uint64_t>(shape.GetDim(i));
    for (int64_t i = dim + 1; i < rank; ++i) inner *= static_cast<uint64_t>(shape.GetDim(i));
    uint64_t reduce = static_cast<uint64_t>(shape.GetDim(dim));

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores == 0) cores = 1;

    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t elemBytes = (dt == ge::DT_FLOAT16) ? 2 : 4;

    AxisMeanTilingData td;
    // 2 input buffers + fp32 accumulator + fp32 cast scratch + output, leave margin
    uint64_t usable = ub - 16 * 1024;
    uint32_t tileLen;
    uint32_t rowsPerLoad = 1;
    uint64_t tilesPerOuter;
    uint64_t units;

    if (inner == 1) {
        uint64_t perElem = 2ULL * elemBytes + 4 + 4;
        tileLen = static_cast<uint32_t>(usable / perElem) / 64 * 64;
        if (tileLen > 16384) tileLen = 16384;
        if (tileLen > reduce) tileLen = static_cast<uint32_t>((reduce + 63) / 64 * 64);
        tilesPerOuter = 1;
        units = outer;
        context->SetTilingKey(KEY_LAST_AXIS);
    } else {
        tileLen = 4096;
        uint64_t innerAligned = (inner + 63) / 64 * 64;
        if (tileLen > innerAligned) tileLen = static_cast<uint32_t>(innerAligned);
        // rows per DMA chosen so the double-buffered input block fits in about half of UB
        uint64_t perRow = static_cast<uint64_t>(tileLen) * elemBytes;
        uint64_t rows = (usable / 2) / (2 * perRow);
        if (rows == 0) rows = 1;
        if (rows > reduce) rows = reduce;
        if (rows > 32) rows = 32;
        rowsPerLoad = static_cast<uint32_t>(rows);
        tilesPerOuter = (inner + tileLen - 1) / tileLen;
        units = outer * tilesPerOuter;
        context->SetTilingKey(KEY_MID_AXIS);
    }

    uint64_t used = units < cores ? units : cores;
    if (used == 0) used = 1;
    uint64_t per = (units + used - 1) / used;
    used = (units + per - 1) / per;

    td.set_outer(outer);
    td.set_reduce(reduce);
    td.set_inner(inner);
    td.set_tileLen(tileLen);
    td.set_rowsPerLoad(rowsPerLoad);
    td.set_tilesPerOuter(tilesPerOuter);
    td.set_totalUnits(units);
    td.set_unitsPerCore(per);
    td.set_invReduce(reduce == 0 ? 0.0f : 1.0f / static_cast<float>(reduce));

    context->SetBlockDim(static_cast<uint32_t>(used));
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
