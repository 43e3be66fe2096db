/**
 * @file axis_prod_tiling.cpp
 * Host tiling for AxisProd.
 *
 * tiling key 1 : reduced axis is not the last one (innerSize > 1). Each work unit is one
 *                (outer index, column tile) pair; the kernel streams axisSize rows of the tile
 *                and multiplies them into an accumulator.
 * tiling key 2 : reduced axis is the last one (innerSize == 1). Each work unit is one outer
 *                index; the kernel folds the contiguous axis with halving multiplications.
 */
#include "axis_prod_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t UB_RESERVE = 8 * 1024;
constexpr uint32_t ALIGN_BYTES = 32;
constexpr uint32_t KEY_MID_AXIS = 1;
constexpr uint32_t KEY_LAST_AXIS = 2;

inline uint32_t AlignDown(uint32_t v, uint32_t a) { return v / a * a; }
inline uint32_t CeilDiv(uint32_t v, uint32_t a) { return (v + a - 1) / a; }
}  // namespace

ge::graphStatus AxisProdTilingFunc(gert::TilingContext *context)
{
    AxisProdTilingData tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    const gert::Shape &xShape = context->GetInputShape(0)->GetStorageShape();
    int64_t rank = static_cast<int64_t>(xShape.GetDimNum());
    const int64_t *dimAttr = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    int64_t axis = (dimAttr == nullptr) ? 0 : *dimAttr;
    if (axis < 0) {
        axis += rank;
    }
    if (axis < 0 || axis >= rank) {
        return ge::GRAPH_FAILED;
    }

    uint64_t outer = 1;
    uint64_t inner = 1;
    for (int64_t i = 0; i < axis; ++i) {
        outer *= xShape.GetDim(i);
    }
    for (int64_t i = axis + 1; i < rank; ++i) {
        inner *= xShape.GetDim(i);
    }
    uint32_t axisLen = static_cast<uint32_t>(xShape.GetDim(axis));

    uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    uint32_t elemPerBlock = ALIGN_BYTES / typeSize;
    uint32_t ubElems = static_cast<uint32_t>((ubSize - UB_RESERVE) / typeSize);

    tiling.set_outerSize(static_cast<uint32_t>(outer));
    tiling.set_axisSize(axisLen);
    tiling.set_innerSize(static_cast<uint32_t>(inner));

    uint32_t units = 0;
    if (inner > 1) {
        // 2 input buffers (double buffering) + accumulator + output staging
        uint32_t maxCols = AlignDown(ubElems / 4, elemPerBlock);
        maxCols = maxCols > 8192 ? 8192 : maxCols;
        uint32_t innerAligned = CeilDiv(static_cast<uint32_t>(inner), elemPerBlock) * elemPerBlock;
        uint32_t cols = innerAligned < maxCols ? innerAligned : maxCols;
        uint32_t colTiles = CeilDiv(static_cast<uint32_t>(inner), cols);
        tiling.set_tileCols(cols);
        tiling.set_colTilesPerRow(colTiles);
        tiling.set_foldLen(0);
        units = static_cast<uint32_t>(outer) * colTiles;
        context->SetTilingKey(KEY_MID_AXIS);
    } else {
        // fold buffer must be a power of two so the halving loop stays exact
        uint32_t fold = 1;
        uint32_t limit = ubElems / 4;
        while (fold * 2 <= limit && fold < axisLen && fold < 16384) {
            fold *= 2;
        }
        if (fold < elemPerBlock * 2) {
            fold = elemPerBlock * 2;
        }
        tiling.set_tileCols(0);
        tiling.set_colTilesPerRow(0);
        tiling.set_foldLen(fold);
        units = static_cast<uint32_t>(outer);
        context->SetTilingKey(KEY_LAST_AXIS);
    }

    uint32_t usedCores = units < coreNum ? units : coreNum;
    if (usedCores == 0) {
        usedCores = 1;
    }
    tiling.set_totalUnits(units);
    tiling.set_unitsPerCore(units / usedCores);
    tiling.set_tailUnits(units % usedCores);
    context->SetBlockDim(usedCores);

    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
