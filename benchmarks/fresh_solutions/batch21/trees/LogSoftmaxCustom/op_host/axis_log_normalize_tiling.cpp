#include "axis_log_normalize_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// tiling keys: <dtype><layout>; layout 1 = reduced axis is innermost, 2 = strided
constexpr uint32_t KEY_F32_ROW = 11, KEY_F32_COL = 12, KEY_F16_ROW = 21, KEY_F16_COL = 22;

ge::graphStatus AxisLogNormalizeTilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape &shape = context->GetInputShape(0)->GetStorageShape();
    int64_t rank = shape.GetDimNum();
    int64_t dim = *context->GetAttrs()->GetAttrPointer<int64_t>(0);
    if (dim < 0) {
        dim += rank;
    }
    if (rank == 0 || dim < 0 || dim >= rank) {
        return ge::GRAPH_FAILED;
    }
    uint64_t outer = 1, inner = 1;
    for (int64_t i = 0; i < dim; ++i) outer *= shape.GetDim(i);
    for (int64_t i = dim + 1; i < rank; ++i) inner *= shape.GetDim(i);
    uint32_t axisLen = shape.GetDim(dim);

    bool isHalf = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16;
    uint32_t cores = plat.GetCoreNumAiv();
    AxisLogNormalizeTilingData td;
    uint32_t tileLen, tasks, innerTiles = 1, key;
    if (inner == 1) {
        tileLen = 16384;                               // per-row streaming chunk
        if (axisLen < tileLen) tileLen = (axisLen + 15) / 16 * 16;
        tasks = outer;
        key = isHalf ? KEY_F16_ROW : KEY_F32_ROW;
    } else {
        tileLen = 2048;                                // contiguous inner slice
        if (inner < tileLen) tileLen = (inner + 15) / 16 * 16;
        innerTiles = (inner + tileLen - 1) / tileLen;
        tasks = outer * innerTiles;
        key = isHalf ? KEY_F16_COL : KEY_F32_COL;
    }
    if (cores > tasks) cores = tasks;

    td.set_outer(outer);
    td.set_axisLen(axisLen);
    td.set_inner(inner);
    td.set_tileLen(tileLen);
    td.set_taskNum(tasks);
    td.set_innerTiles(innerTiles);
    td.set_taskPerCore(tasks / cores);
    td.set_taskRemain(tasks % cores);

    context->SetTilingKey(key);
    context->SetBlockDim(cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}
