#include "mean_abs_normalize_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// Tiling key = mode * 10 + dtype
//   mode 1: reduced axis is the innermost axis (inner == 1), one unit = one row
//   mode 2: reduced axis is strided (inner > 1), one unit = (outer index, inner chunk)
//   dtype 0: float32, 1: float16
constexpr uint32_t MODE_ROW = 1;
constexpr uint32_t MODE_STRIDED = 2;

ge::graphStatus MeanAbsNormalizeTiling(gert::TilingContext* context)
{
    const auto& shape = context->GetInputShape(0)->GetStorageShape();
    size_t rank = shape.GetDimNum();
    if (rank < 2) {
        return ge::GRAPH_FAILED;
    }
    uint32_t outer = static_cast<uint32_t>(shape.GetDim(0));
    uint32_t reduceLen = static_cast<uint32_t>(shape.GetDim(1));
    uint32_t inner = 1;
    for (size_t i = 2; i < rank; ++i) {
        inner *= static_cast<uint32_t>(shape.GetDim(i));
    }

    auto ascendc = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = ascendc.GetCoreNumAiv();
    uint64_t ub = 0;
    ascendc.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);

    bool isHalf = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16;
    // UB plan per tile element (bytes): in x2 + out x2 (T) + 3 float work buffers.
    uint32_t tBytes = isHalf ? 2 : 4;
    uint32_t perElem = 4 * tBytes + 3 * 4;
    uint32_t tileLen = static_cast<uint32_t>((ub - 16 * 1024) / perElem);
    tileLen = tileLen / 64 * 64;
    if (tileLen > 16384) {
        tileLen = 16384;
    }

    MeanAbsNormalizeTilingData td;
    uint32_t mode;
    uint32_t units;
    uint32_t innerChunks = 0;
    if (inner == 1) {
        mode = MODE_ROW;
        units = outer;
    } else {
        mode = MODE_STRIDED;
        innerChunks = (inner + tileLen - 1) / tileLen;
        units = outer * innerChunks;
    }
    uint32_t used = units < cores ? units : cores;
    if (used == 0) {
        used = 1;
    }

    td.set_outer(outer);
    td.set_reduceLen(reduceLen);
    td.set_inner(inner);
    td.set_tileLen(tileLen);
    td.set_innerChunks(innerChunks);
    td.set_totalUnits(units);
    td.set_unitsPerCore(units / used);
    td.set_unitsRemain(units % used);

    context->SetBlockDim(used);
    context->SetTilingKey(mode * 10 + (isHalf ? 1 : 0));
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
