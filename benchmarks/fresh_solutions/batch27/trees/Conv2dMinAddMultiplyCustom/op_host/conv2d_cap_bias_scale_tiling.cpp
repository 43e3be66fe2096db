/**
 * @file conv2d_cap_bias_scale_tiling.cpp
 * @brief Host tiling for Conv2dCapBiasScale.
 *
 * Work unit = (output-column tile, image, output-channel block, output row).  A unit keeps an
 * accumulator of ocBlock x owTile floats in UB; weights of the current channel block stay
 * resident in UB while consecutive units (consecutive output rows) reuse them.
 */
#include <algorithm>
#include "conv2d_cap_bias_scale_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint64_t UB_BUDGET = 176 * 1024;
constexpr uint32_t MAX_OW_TILE = 256;
constexpr uint32_t MIN_OW_TILE = 32;

inline uint64_t Align8(uint64_t v) { return (v + 7) / 8 * 8; }
inline uint64_t CeilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

uint64_t UbBytes(uint64_t ocBlock, uint64_t owTile, uint64_t wPerOc, uint64_t rowCap)
{
    const uint64_t weights = Align8(ocBlock * wPerOc);
    const uint64_t acc = ocBlock * owTile;
    const uint64_t outQueue = 2 * ocBlock * owTile;
    const uint64_t rows = 2 * rowCap;
    const uint64_t tapAndIdx = 2 * owTile;
    const uint64_t biases = 2 * Align8(ocBlock);
    return 4 * (weights + acc + outQueue + rows + tapAndIdx + biases);
}

uint64_t RowCap(uint64_t owTile, uint64_t strideW, uint64_t kW)
{
    return Align8((owTile - 1) * strideW + kW) + 8;
}

int64_t ListAt(const gert::TypedContinuousVector<int64_t>* v, size_t i, int64_t dflt)
{
    if (v == nullptr || v->GetSize() == 0) {
        return dflt;
    }
    const int64_t* d = v->GetData();
    return (i < v->GetSize()) ? d[i] : d[v->GetSize() - 1];
}
} // namespace

ge::graphStatus Conv2dCapBiasScaleTilingFunc(gert::TilingContext* context)
{
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& ws = context->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 4 || ws.GetDimNum() != 4 || xs.GetDim(1) != ws.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    const float* cap = attrs->GetAttrPointer<float>(0);
    const float* scale = attrs->GetAttrPointer<float>(1);
    const auto* strides = attrs->GetListInt(2);
    const auto* pads = attrs->GetListInt(3);

    const uint64_t n = xs.GetDim(0), c = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    const uint64_t oc = ws.GetDim(0), kh = ws.GetDim(2), kw = ws.GetDim(3);
    const int64_t sh = ListAt(strides, 0, 1), sw = ListAt(strides, 1, 1);
    const int64_t ph = ListAt(pads, 0, 0), pw = ListAt(pads, 1, 0);
    if (sh <= 0 || sw <= 0 || ph < 0 || pw < 0) {
        return ge::GRAPH_FAILED;
    }
    const int64_t ohSigned = (static_cast<int64_t>(h) + 2 * ph - static_cast<int64_t>(kh)) / sh + 1;
    const int64_t owSigned = (static_cast<int64_t>(w) + 2 * pw - static_cast<int64_t>(kw)) / sw + 1;
    if (ohSigned <= 0 || owSigned <= 0) {
        return ge::GRAPH_FAILED;
    }
    const uint64_t oh = static_cast<uint64_t>(ohSigned);
    const uint64_t ow = static_cast<uint64_t>(owSigned);
    const uint64_t wPerOc = c * kh * kw;

    uint64_t owTile = std::min<uint64_t>(Align8(ow), MAX_OW_TILE);
    uint64_t ocBlock = oc;
    while (UbBytes(ocBlock, owTile, wPerOc, RowCap(owTile, sw, kw)) > UB_BUDGET) {
        const bool weightsDominate = 4 * ocBlock * wPerOc > UB_BUDGET / 2;
        if (weightsDominate && ocBlock > 1) {
            ocBlock = (ocBlock + 1) / 2;
        } else if (owTile > MIN_OW_TILE) {
            owTile = Align8(owTile / 2);
        } else if (ocBlock > 1) {
            ocBlock = (ocBlock + 1) / 2;
        } else if (owTile > 8) {
            owTile = Align8(owTile / 2);
        } else {
            return ge::GRAPH_FAILED;   // a single output channel's filter does not fit in UB
        }
    }
    const uint64_t ocBlockNum = CeilDiv(oc, ocBlock);
    ocBlock = CeilDiv(oc, ocBlockNum);   // balance the channel blocks
    const uint64_t owTileNum = CeilDiv(ow, owTile);
    const uint64_t totalUnits = owTileNum * n * ocBlockNum * oh;
    if (totalUnits > 0xFFFFFFFFULL) {
        return ge::GRAPH_FAILED;
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t coreNum = std::max<uint64_t>(1, platform.GetCoreNumAiv());
    coreNum = std::min<uint64_t>(coreNum, totalUnits);

    Conv2dCapBiasScaleTilingData td;
    td.set_batch(n);
    td.set_inC(c);
    td.set_inH(h);
    td.set_inW(w);
    td.set_outC(oc);
    td.set_kH(kh);
    td.set_kW(kw);
    td.set_outH(oh);
    td.set_outW(ow);
    td.set_strideH(sh);
    td.set_strideW(sw);
    td.set_padH(ph);
    td.set_padW(pw);
    td.set_weightPerOc(wPerOc);
    td.set_ocBlock(ocBlock);
    td.set_ocBlockNum(ocBlockNum);
    td.set_owTile(owTile);
    td.set_owTileNum(owTileNum);
    td.set_rowCap(RowCap(owTile, sw, kw));
    td.set_hasConvBias(context->GetOptionalInputShape(2) != nullptr ? 1 : 0);
    td.set_totalUnits(totalUnits);
    td.set_unitsPerCore(totalUnits / coreNum);
    td.set_unitsRemainder(totalUnits % coreNum);
    td.set_capValue(cap != nullptr ? *cap : 0.0f);
    td.set_scale(scale != nullptr ? *scale : 1.0f);
    td.set_reserved(0);

    context->SetBlockDim(static_cast<uint32_t>(coreNum));
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
