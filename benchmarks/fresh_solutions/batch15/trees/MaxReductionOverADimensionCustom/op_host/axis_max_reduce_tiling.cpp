#include "axis_max_reduce_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint64_t MODE_STRIDED = 0;    // reduce axis is not the last one
constexpr uint64_t MODE_CONTIG = 1;     // reduce axis is the last one
}

ge::graphStatus AxisMaxReduceTilingFunc(gert::TilingContext *context)
{
    auto shape = context->GetInputShape(0)->GetStorageShape();
    int64_t rank = shape.GetDimNum();
    int64_t axis = *context->GetAttrs()->GetAttrPointer<int64_t>(0);
    axis = axis < 0 ? axis + rank : axis;
    if (axis < 0 || axis >= rank) {
        return ge::GRAPH_FAILED;
    }
    uint64_t outer = 1;
    uint64_t inner = 1;
    for (int64_t d = 0; d < rank; ++d) {
        if (d < axis) outer *= shape.GetDim(d);
        if (d > axis) inner *= shape.GetDim(d);
    }
    uint32_t axisSize = static_cast<uint32_t>(shape.GetDim(axis));
    if (axisSize == 0) {
        return ge::GRAPH_FAILED;   // max over an empty axis is undefined
    }

    const uint32_t bytes = context->GetInputDataType(0) == ge::DT_FLOAT16 ? 2 : 4;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t aivNum = ascendcPlatform.GetCoreNumAiv();

    AxisMaxReduceTilingData data;
    uint64_t jobs;
    if (inner == 1) {
        // whole rows per job; elements per DMA chosen around 16 KB
        uint32_t tile = 16384 / bytes;
        if (axisSize < tile) tile = (axisSize + 255) / 256 * 256;
        data.set_tileW(tile);
        data.set_tilesPerRow(1);
        jobs = outer;
        context->SetTilingKey(MODE_CONTIG);
    } else {
        // column strips of up to 32 KB each (ping-pong input + running max)
        uint32_t tile = 32768 / bytes;
        if (inner < tile) tile = static_cast<uint32_t>((inner * bytes + 31) / 32 * 32 / bytes);
        uint32_t strips = static_cast<uint32_t>((inner + tile - 1) / tile);
        // make sure there is enough parallelism: shrink strips while cores idle
        while (outer * strips < aivNum && tile > 512 / bytes * 2) {
            tile /= 2;
            strips = static_cast<uint32_t>((inner + tile - 1) / tile);
        }
        data.set_tileW(tile);
        data.set_tilesPerRow(strips);
        jobs = outer * strips;
        context->SetTilingKey(MODE_STRIDED);
    }
    uint32_t blockDim = jobs < aivNum ? static_cast<uint32_t>(jobs) : aivNum;
    blockDim = blockDim == 0 ? 1 : blockDim;

    data.set_outerSize(static_cast<uint32_t>(outer));
    data.set_axisSize(axisSize);
    data.set_innerSize(static_cast<uint32_t>(inner));
    data.set_jobsTotal(static_cast<uint32_t>(jobs));
    data.set_jobsPerCore(static_cast<uint32_t>(jobs / blockDim));
    data.set_jobsRemain(static_cast<uint32_t>(jobs % blockDim));

    context->SetBlockDim(blockDim);
    data.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(data.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}
