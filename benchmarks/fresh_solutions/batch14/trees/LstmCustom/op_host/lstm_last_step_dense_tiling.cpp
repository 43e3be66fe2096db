#include "lstm_last_step_dense_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t CHUNK_BYTES = 48 * 1024;  // per weight slab, double buffered
inline uint32_t Pad8(uint32_t v) { return (v + 7) / 8 * 8; }
}

ge::graphStatus LstmLastStepDenseTiling(gert::TilingContext *context)
{
    const gert::Shape &x = context->GetInputShape(0)->GetStorageShape();   // [B, T, I]
    const gert::Shape &h0 = context->GetInputShape(1)->GetStorageShape();  // [L, B, H]
    const gert::Shape &fc = context->GetInputShape(7)->GetStorageShape();  // [H, O]
    if (x.GetDimNum() != 3 || h0.GetDimNum() != 3 || fc.GetDimNum() != 2) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t batch = x.GetDim(0);
    const uint32_t seq = x.GetDim(1);
    const uint32_t in = x.GetDim(2);
    const uint32_t layers = h0.GetDim(0);
    const uint32_t hidden = h0.GetDim(2);
    const uint32_t out = fc.GetDim(1);
    if (h0.GetDim(1) != batch || fc.GetDim(0) != hidden || seq == 0) {
        return ge::GRAPH_FAILED;
    }
    // a slab must hold at least one gate row (4H floats)
    uint32_t chunk = CHUNK_BYTES / sizeof(float);
    if (chunk < Pad8(4 * hidden)) {
        chunk = Pad8(4 * hidden);
    }

    LstmLastStepDenseTilingData td;
    td.set_batch(batch);
    td.set_seqLen(seq);
    td.set_inputSize(in);
    td.set_hiddenSize(hidden);
    td.set_numLayers(layers);
    td.set_outputSize(out);
    td.set_weightChunkElems(chunk);
    td.set_maxInDim(Pad8(in > hidden ? in : hidden));

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    // sequences are independent per sample: one sample per core at a time
    uint32_t cores = std::min<uint32_t>(plat.GetCoreNumAiv(), batch);
    context->SetBlockDim(cores == 0 ? 1 : cores);

    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    // two ping-pong hidden-sequence buffers [B, T, H] for the inter-layer activations
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize() + 2ULL * batch * seq * hidden * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
