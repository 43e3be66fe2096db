#include "softmax_xent_mean_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_CHUNK = 8192;           // floats per chunk
constexpr uint32_t PARTIAL_STRIDE = 8;         // floats reserved per core in the workspace

ge::graphStatus SoftmaxXentMeanTilingFunc(gert::TilingContext *context)
{
    auto ascendc = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape &logits = context->GetInputShape(0)->GetStorageShape();
    if (logits.GetDimNum() != 2) {
        return ge::GRAPH_FAILED;
    }
    uint32_t batch = logits.GetDim(0);
    uint32_t classes = logits.GetDim(1);
    const int64_t *ignore = context->GetAttrs()->GetAttrPointer<int64_t>(0);

    uint32_t cores = ascendc.GetCoreNumAiv();
    if (cores > batch) {
        cores = batch == 0 ? 1 : batch;
    }
    uint32_t chunk = (classes + 15) / 16 * 16;     // multiple of 16 for half
    if (chunk > MAX_CHUNK) {
        chunk = MAX_CHUNK;
    }

    SoftmaxXentMeanTilingData t;
    t.set_batch(batch);
    t.set_classes(classes);
    t.set_rowsPerCore(batch / cores);
    t.set_rowsTail(batch % cores);
    t.set_usedCores(cores);
    t.set_chunk(chunk);
    t.set_ignoreIndex(ignore == nullptr ? -100 : *ignore);

    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 2 : 1);
    context->SetBlockDim(cores);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());

    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = ascendc.GetLibApiWorkSpaceSize() + cores * PARTIAL_STRIDE * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}
