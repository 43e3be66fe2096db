#include "reduce_max_along_axis_tiling.h"
#include <algorithm>
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t RESERVED_UB = 8 * 1024;
constexpr uint32_t KEY_ROWWISE = 0;
constexpr uint32_t KEY_LASTAXIS = 1;

inline uint64_t CeilDiv(uint64_t a, uint64_t b) { return b == 0 ? 0 : (a + b - 1) / b; }
inline uint64_t AlignDown(uint64_t a, uint64_t b) { return a / b * b; }
}  // namespace

ge::graphStatus ReduceMaxAlongAxisTilingFunc(gert::TilingContext *context)
{
    ReduceMaxAlongAxisTilingData tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    const gert::StorageShape *xShape = context->GetInputShape(0);
    const gert::Shape &shape = xShape->GetStorageShape();
    int64_t rank = static_cast<int64_t>(shape.GetDimNum());
    const int64_t *dimAttr = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    int64_t axis = (dimAttr == nullptr) ? 0 : *dimAttr;
    if (axis < 0) {
        axis += rank;
    }
    if (axis < 0 || axis >= rank) {
        return ge::GRAPH_FAILED;
    }

    uint64_t outer = 1, inner = 1;
    for (int64_t i = 0; i < axis; ++i) outer *= shape.GetDim(i);
    for (int64_t i = axis + 1; i < rank; ++i) inner *= shape.GetDim(i);
    uint64_t axisLen = shape.GetDim(axis);

    uint32_t typeSize = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
    uint32_t elemPerBlock = BLOCK_BYTES / typeSize;
    uint64_t usableUb = ubSize - RESERVED_UB;

    uint64_t totalUnits = 0;
    if (inner > 1) {
        // double-buffered input (2 tiles) + accumulator + output staging (2 tiles) = 5 tiles
        uint64_t maxTile = AlignDown(usableUb / 5 / typeSize, 256 / typeSize);
        uint64_t tile = std::min<uint64_t>(maxTile, CeilDiv(inner, elemPerBlock) * elemPerBlock);
        tiling.set_innerTile(static_cast<uint32_t>(tile));
        tiling.set_innerTileNum(static_cast<uint32_t>(CeilDiv(inner, tile)));
        tiling.set_axisTile(0);
        totalUnits = outer * CeilDiv(inner, tile);
        context->SetTilingKey(KEY_ROWWISE);
    } else {
        // double-buffered input chunk + ReduceMax work area (one chunk) + small scratch
        uint64_t maxChunk = AlignDown((usableUb - 2048) / 3 / typeSize, 256 / typeSize);
        uint64_t chunk = std::min<uint64_t>(maxChunk, CeilDiv(axisLen, elemPerBlock) * elemPerBlock);
        tiling.set_innerTile(0);
        tiling.set_innerTileNum(0);
        tiling.set_axisTile(static_cast<uint32_t>(chunk));
        totalUnits = outer;  // one unit = one output element
        context->SetTilingKey(KEY_LASTAXIS);
    }

    uint32_t usedCores = static_cast<uint32_t>(std::min<uint64_t>(coreNum, std::max<uint64_t>(totalUnits, 1)));
    uint64_t base = totalUnits / usedCores;
    uint32_t bigCores = static_cast<uint32_t>(totalUnits % usedCores);
    tiling.set_unitsPerCore(bigCores > 0 ? base + 1 : base);
    tiling.set_bigCoreNum(bigCores == 0 ? usedCores : bigCores);

    tiling.set_outerSize(outer);
    tiling.set_axisLen(axisLen);
    tiling.set_innerSize(inner);

    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
