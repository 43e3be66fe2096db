// Tiling for SoftmaxNllMean: mean over the batch of  logsumexp(logits[i]) - logits[i, target[i]].
#include "softmax_nll_mean_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t MAX_COL_TILE = 8192;   // fp32 elements of one class chunk
constexpr uint32_t ROW_GROUP = 64;
constexpr uint32_t PARTIAL_STRIDE_BYTES = 32;   // one 32B slot per core in the user workspace
}

ge::graphStatus SoftmaxNllMeanTilingFunc(gert::TilingContext* context)
{
    const gert::Shape& logits = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& target = context->GetInputShape(1)->GetStorageShape();
    if (logits.GetDimNum() != 2 || target.GetDimNum() != 1 || target.GetDim(0) != logits.GetDim(0)) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t rows = static_cast<uint32_t>(logits.GetDim(0));
    const uint32_t classes = static_cast<uint32_t>(logits.GetDim(1));
    if (rows == 0 || classes == 0) {
        return ge::GRAPH_FAILED;
    }
    int64_t ignoreIndex = -100;
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    if (attrs != nullptr && attrs->GetAttrPointer<int64_t>(0) != nullptr) {
        ignoreIndex = *attrs->GetAttrPointer<int64_t>(0);
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t cores = plat.GetCoreNumAiv();

    uint32_t colTile = (classes + 63) / 64 * 64;
    colTile = colTile > MAX_COL_TILE ? MAX_COL_TILE : colTile;
    const uint32_t used = rows < cores ? rows : cores;

    SoftmaxNllMeanTilingData t;
    t.set_rows(rows);
    t.set_classes(classes);
    t.set_colTile(colTile);
    t.set_colChunks((classes + colTile - 1) / colTile);
    t.set_rowGroup(ROW_GROUP);
    t.set_rowsPerCore(rows / used);
    t.set_rowsTail(rows % used);
    t.set_coreUsed(used);
    t.set_ignoreIndex(static_cast<int32_t>(ignoreIndex));

    context->SetBlockDim(used);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    // system workspace (needed by the cross-core barrier) + one partial-result slot per core
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = static_cast<size_t>(plat.GetLibApiWorkSpaceSize()) + used * PARTIAL_STRIDE_BYTES;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
