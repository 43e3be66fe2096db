#include "stacked_gru_final_state_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
inline uint32_t Pad8(uint32_t n) { return (n + 7U) & ~7U; }

// UB bytes the kernel needs for a given split (mirrors the buffers in the kernel Init)
uint64_t UbNeed(uint32_t B, uint32_t inPad, uint32_t hPad, uint32_t hs, bool resident)
{
    uint32_t hsPad = Pad8(hs);
    uint64_t floats = 0;
    floats += (uint64_t)B * hPad;              // previous hidden state, all units
    floats += (uint64_t)B * inPad;             // layer input at step t
    floats += inPad;                           // product scratch
    floats += inPad / 8 + 64;                  // ReduceSum work
    floats += (uint64_t)6 * B * hs * 8;        // one 32B slot per dot product
    floats += (uint64_t)6 * B * hsPad;         // gate / state vectors
    floats += 6 * hsPad;                       // biases
    floats += resident ? (uint64_t)3 * hs * (inPad + hPad) : (uint64_t)2 * (inPad + hPad);
    return floats * sizeof(float);
}
}  // namespace

ge::graphStatus StackedGruTiling(gert::TilingContext *context)
{
    auto xs = context->GetInputShape(0)->GetStorageShape();
    auto hs0 = context->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 3 || hs0.GetDimNum() != 3) {
        return ge::GRAPH_FAILED;
    }
    bool batchFirst = false;
    if (context->GetAttrs() != nullptr) {
        const bool *bf = context->GetAttrs()->GetAttrPointer<bool>(0);
        batchFirst = (bf != nullptr) && *bf;
    }
    uint32_t T = batchFirst ? xs.GetDim(1) : xs.GetDim(0);
    uint32_t B = batchFirst ? xs.GetDim(0) : xs.GetDim(1);
    uint32_t I = xs.GetDim(2);
    uint32_t L = hs0.GetDim(0);
    uint32_t H = hs0.GetDim(2);
    if (hs0.GetDim(1) != B || H == 0 || L == 0) {
        return ge::GRAPH_FAILED;
    }

    auto ascendc = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendc.GetCoreNumAiv();
    uint64_t ubBytes = 0;
    ascendc.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubBytes);
    ubBytes -= 4096;  // headroom for API internals

    uint32_t hPad = Pad8(H);
    uint32_t inPad = Pad8(I > H ? I : H);
    uint32_t hs = (H + coreNum - 1) / coreNum;
    bool resident = UbNeed(B, inPad, hPad, hs, true) <= ubBytes;
    if (!resident && UbNeed(B, inPad, hPad, hs, false) > ubBytes) {
        return ge::GRAPH_FAILED;  // batch * hidden too large for this layout
    }
    uint32_t usedCores = (H + hs - 1) / hs;

    StackedGruTilingData td;
    td.set_seqLen(T);
    td.set_batch(B);
    td.set_inputSize(I);
    td.set_hiddenSize(H);
    td.set_numLayers(L);
    td.set_batchFirst(batchFirst ? 1 : 0);
    td.set_unitsPerCore(hs);
    td.set_weightResident(resident ? 1 : 0);
    td.set_maxInPad(inPad);

    context->SetBlockDim(usedCores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    // two ping-pong (T, B, H) sequence buffers for the layer outputs
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = ascendc.GetLibApiWorkSpaceSize() + (size_t)2 * T * B * H * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
