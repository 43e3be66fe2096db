#include "seq_window_max_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus SeqWindowMaxTilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    size_t rank = xs.GetDimNum();
    if (rank < 2) return ge::GRAPH_FAILED;
    auto attrs = context->GetAttrs();
    int64_t k = *attrs->GetAttrPointer<int64_t>(0);
    int64_t s = *attrs->GetAttrPointer<int64_t>(1);
    int64_t p = *attrs->GetAttrPointer<int64_t>(2);
    int64_t d = *attrs->GetAttrPointer<int64_t>(3);
    if (s <= 0) s = k;                 // stride 0 means "same as window"
    if (k <= 0 || d <= 0 || p < 0 || 2 * p > k) return ge::GRAPH_FAILED;

    uint32_t len = xs.GetDim(rank - 1);
    uint32_t rows = xs.GetShapeSize() / len;
    int64_t outLen = (int64_t(len) + 2 * p - d * (k - 1) - 1) / s + 1;
    if (outLen <= 0) return ge::GRAPH_FAILED;

    bool isHalf = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16;
    uint32_t elemsPerBlock = isHalf ? 16 : 8;
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > rows) cores = rows;

    SeqWindowMaxTilingData td;
    td.set_rows(rows);
    td.set_inLen(len);
    td.set_inLenAlign((len + elemsPerBlock - 1) / elemsPerBlock * elemsPerBlock);
    td.set_outLen(outLen);
    td.set_outLenAlign((outLen + elemsPerBlock - 1) / elemsPerBlock * elemsPerBlock);
    td.set_window(k);
    td.set_stride(s);
    td.set_pad(p);
    td.set_dilation(d);
    td.set_rowsPerCore(rows / cores);
    td.set_rowsExtra(rows % cores);

    context->SetTilingKey(isHalf ? 2 : 1);
    context->SetBlockDim(cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}
