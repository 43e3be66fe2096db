#include "bi_gru_sequence_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t BLK = 8;
constexpr uint64_t UB_SPARE = 16 * 1024;

inline uint32_t Ceil8(uint32_t v) { return (v + BLK - 1) / BLK * BLK; }

int64_t IntAttr(const gert::RuntimeAttrs *a, size_t i, int64_t dflt)
{
    if (a == nullptr) {
        return dflt;
    }
    const int64_t *p = a->GetInt(i);
    return p == nullptr ? dflt : *p;
}

bool BoolAttr(const gert::RuntimeAttrs *a, size_t i, bool dflt)
{
    if (a == nullptr) {
        return dflt;
    }
    const bool *p = a->GetBool(i);
    return p == nullptr ? dflt : *p;
}
}  // namespace

ge::graphStatus BiGruSequenceTiling(gert::TilingContext *context)
{
    auto xDesc = context->GetInputShape(0);
    auto hDesc = context->GetInputShape(1);
    auto wDesc = context->GetInputShape(2);
    if (xDesc == nullptr || hDesc == nullptr || wDesc == nullptr) {
        return ge::GRAPH_FAILED;
    }
    const gert::Shape &xs = xDesc->GetStorageShape();
    const gert::Shape &hs = hDesc->GetStorageShape();
    if (xs.GetDimNum() != 3 || hs.GetDimNum() != 3) {
        return ge::GRAPH_FAILED;
    }
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    int64_t hidden = IntAttr(attrs, 0, 0);
    int64_t layers = IntAttr(attrs, 1, 1);
    bool bias = BoolAttr(attrs, 2, true);
    uint32_t T = xs.GetDim(0);
    uint32_t B = xs.GetDim(1);
    uint32_t I = xs.GetDim(2);
    if (hidden <= 0 || layers <= 0 || hs.GetDim(0) != 2 * layers || hs.GetDim(1) != B ||
        hs.GetDim(2) != hidden || T == 0 || B == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t H = static_cast<uint32_t>(hidden);
    uint32_t L = static_cast<uint32_t>(layers);
    uint32_t Ha = Ceil8(H);
    uint32_t G = 3 * Ha;

    uint64_t biasFloats = bias ? 6ULL * H : 0ULL;
    uint64_t flat0 = 3ULL * H * I + 3ULL * H * H + biasFloats;
    uint64_t flatN = 3ULL * H * (2ULL * H) + 3ULL * H * H + biasFloats;
    uint64_t expect = 2 * flat0 + 2ULL * (L - 1) * flatN;
    if (static_cast<uint64_t>(wDesc->GetStorageShape().GetShapeSize()) != expect) {
        return ge::GRAPH_FAILED;
    }
    uint64_t pack0 = static_cast<uint64_t>(I + H) * G;
    uint64_t packN = static_cast<uint64_t>(2 * H + H) * G;
    uint64_t packTotal = 2 * pack0 + 2ULL * (L - 1) * packN;
    uint64_t seqBuf = (L > 1) ? static_cast<uint64_t>(T) * B * 2 * H : 0;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t cores = plat.GetCoreNumAiv();
    cores = cores == 0 ? 1 : cores;
    uint64_t avail = (ub - UB_SPARE) / sizeof(float);

    uint32_t inMax = Ceil8(I > 2 * H ? I : 2 * H);
    // Transpose phase: src block R x inMax + dst tile inMax x R + offsets R.
    uint32_t R = static_cast<uint32_t>(avail / (2ULL * inMax + 1));
    R = R / BLK * BLK;
    if (R > 64) {
        R = 64;
    }
    if (R > Ceil8(H)) {
        R = Ceil8(H);
    }
    if (R < BLK) {
        return ge::GRAPH_FAILED;
    }
    // Recurrence: x row, gi, gh, b_ih, b_hh (G each), h / r / z / n / tmp / ones / staging (Ha each);
    // the rest is the double-buffered stream of transposed weight rows.
    uint64_t fixedFloats = inMax + 4ULL * G + 7ULL * Ha + BLK;
    if (fixedFloats >= avail) {
        return ge::GRAPH_FAILED;
    }
    uint32_t streamRows = static_cast<uint32_t>((avail - fixedFloats) / (2ULL * G));
    if (streamRows > 32) {
        streamRows = 32;
    }
    if (streamRows == 0) {
        return ge::GRAPH_FAILED;
    }

    BiGruSequenceTilingData td;
    td.set_seqLen(T);
    td.set_batch(B);
    td.set_inputSize(I);
    td.set_hidden(H);
    td.set_hiddenAlign(Ha);
    td.set_gateWidth(G);
    td.set_numLayers(L);
    td.set_hasBias(bias ? 1 : 0);
    td.set_inMaxAlign(inMax);
    td.set_flatLayer0(flat0);
    td.set_flatLayerN(flatN);
    td.set_packLayer0(pack0);
    td.set_packLayerN(packN);
    td.set_packTotal(packTotal);
    td.set_seqBufFloats(seqBuf);
    td.set_transRows(R);
    td.set_streamRows(streamRows);

    // Every block takes part in SyncAll, so launch exactly one block per vector core.
    context->SetBlockDim(cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize() + (packTotal + 2 * seqBuf) * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
