#include "multi_layer_gated_recurrent_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
inline uint32_t AlignUp(uint32_t a, uint32_t b) { return CeilDiv(a, b) * b; }
}

// UB bytes a core needs for a slice of `s` hidden units (see kernel buffer list)
static uint64_t SliceFootprint(uint32_t s, uint32_t in, uint32_t hid, uint32_t maxFeat)
{
    uint64_t floats = 0;
    floats += 3ULL * s * in;             // W_ih rows of the slice
    floats += 3ULL * s * hid;            // W_hh rows of the slice
    floats += 2ULL * 3 * s;              // both biases
    floats += 2ULL * maxFeat;            // x_t row + h_{t-1} row
    floats += maxFeat;                   // product scratch
    floats += 6ULL * s * 8;              // one 32B slot per dot product
    floats += 6ULL * s + 6ULL * s;       // packed gate pre-activations + gate temporaries
    floats += 1024;                      // reduce work + slack
    return floats * sizeof(float);
}

ge::graphStatus GatedRecurrentTilingFunc(gert::TilingContext *context)
{
    GatedRecurrentTiling tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    const auto &xs = context->GetInputShape(0)->GetStorageShape();   // (T, B, I)
    const auto &hs = context->GetInputShape(1)->GetStorageShape();   // (L, B, H)
    if (xs.GetDimNum() != 3 || hs.GetDimNum() != 3) {
        return ge::GRAPH_FAILED;
    }
    uint32_t T = xs.GetDim(0), B = xs.GetDim(1), I = xs.GetDim(2);
    uint32_t L = hs.GetDim(0), H = hs.GetDim(2);
    uint32_t maxFeat = AlignUp(I > H ? I : H, 64);

    // split hidden units across cores, 8 at a time so each slice starts on a 32B boundary
    uint32_t slice = AlignUp(CeilDiv(H, coreNum), 8);
    while (SliceFootprint(slice, I, H, maxFeat) > ubSize && slice > 8) {
        slice -= 8;
    }
    if (SliceFootprint(slice, I, H, maxFeat) > ubSize) {
        return ge::GRAPH_FAILED;
    }
    uint32_t used = CeilDiv(H, slice);
    if (used > coreNum) {
        return ge::GRAPH_FAILED;   // every step needs all slices resident at once
    }

    tiling.set_seqLen(T);
    tiling.set_batch(B);
    tiling.set_inputSize(I);
    tiling.set_hiddenSize(H);
    tiling.set_numLayers(L);
    tiling.set_sliceLen(slice);
    tiling.set_usedCores(used);
    tiling.set_maxFeat(maxFeat);

    context->SetBlockDim(used);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    // two ping-pong sequence buffers for the inner layers' outputs
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = platform.GetLibApiWorkSpaceSize() + 2ULL * T * B * H * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
