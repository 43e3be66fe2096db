/**
 * @file deconvolution2d_tiling.cpp
 * @brief Host tiling for Deconvolution2d.
 *
 * The transposed convolution is evaluated output-stationary ("gather" form):
 *   y[n, o, oh, ow] = bias[o] + sum x[n, c, ih, iw] * w[c, o', kh, kw]
 *   over all (c, kh, kw) with oh = ih*sH - pH + kh*dH and ow = iw*sW - pW + kw*dW.
 * Units are (column tile, image, group x channel block, output row); the tile varies slowest
 * so the per-kw gather tables are rebuilt rarely and the filter block only when the channel
 * block changes.
 */
#include <algorithm>
#include "deconvolution2d_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint64_t UB_BUDGET = 180 * 1024;
constexpr uint64_t MAX_OW_TILE = 512;
constexpr uint64_t MIN_OW_TILE = 64;
constexpr uint64_t MAX_OC_BLOCK = 64;
constexpr uint64_t ZERO_SLOT = 8;

inline uint64_t Align8(uint64_t v) { return (v + 7) / 8 * 8; }
inline uint64_t CeilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

int64_t ListAt(const gert::TypedContinuousVector<int64_t>* v, size_t i, int64_t dflt)
{
    if (v == nullptr || v->GetSize() == 0) {
        return dflt;
    }
    return (i < v->GetSize()) ? v->GetData()[i] : v->GetData()[v->GetSize() - 1];
}

struct Geo {
    uint64_t cg, kh, kw, sw, dw;
};

uint64_t RowCap(const Geo& g, uint64_t owTile)
{
    return Align8(((owTile - 1) + (g.kw - 1) * g.dw) / g.sw + 2);
}

uint64_t UbBytes(const Geo& g, uint64_t ocBlock, uint64_t owTile)
{
    const uint64_t khkw = g.kh * g.kw;
    uint64_t elems = g.cg * Align8(ocBlock * khkw);     // filter block
    elems += Align8(ocBlock);                          // bias
    elems += ocBlock * owTile;                         // accumulator
    elems += std::max<uint64_t>(RowCap(g, owTile) + ZERO_SLOT, owTile);   // staged row + zero slot
    elems += owTile;                                   // tap
    elems += g.kw * owTile;                            // per-kw gather tables (uint32)
    return elems * 4;
}
} // namespace

ge::graphStatus Deconvolution2dTilingFunc(gert::TilingContext* context)
{
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& ws = context->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 4 || ws.GetDimNum() != 4 || xs.GetDim(1) != ws.GetDim(0)) {
        return ge::GRAPH_FAILED;
    }
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    const auto* strides = attrs->GetListInt(0);
    const auto* pads = attrs->GetListInt(1);
    const auto* outPads = attrs->GetListInt(2);
    const auto* dilations = attrs->GetListInt(3);
    const int64_t* groupsAttr = attrs->GetAttrPointer<int64_t>(4);

    const int64_t n = xs.GetDim(0), c = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    const int64_t groups = (groupsAttr != nullptr && *groupsAttr > 0) ? *groupsAttr : 1;
    const int64_t ocg = ws.GetDim(1), kh = ws.GetDim(2), kw = ws.GetDim(3);
    const int64_t oc = ocg * groups;
    const int64_t sh = ListAt(strides, 0, 1), sw = ListAt(strides, 1, 1);
    const int64_t ph = ListAt(pads, 0, 0), pw = ListAt(pads, 1, 0);
    const int64_t oph = ListAt(outPads, 0, 0), opw = ListAt(outPads, 1, 0);
    const int64_t dh = ListAt(dilations, 0, 1), dw = ListAt(dilations, 1, 1);
    if (sh <= 0 || sw <= 0 || dh <= 0 || dw <= 0 || ph < 0 || pw < 0 || oph < 0 || opw < 0 ||
        c % groups != 0) {
        return ge::GRAPH_FAILED;
    }
    const int64_t oh = (h - 1) * sh - 2 * ph + dh * (kh - 1) + oph + 1;
    const int64_t ow = (w - 1) * sw - 2 * pw + dw * (kw - 1) + opw + 1;
    if (oh <= 0 || ow <= 0) {
        return ge::GRAPH_FAILED;
    }

    Geo geo{static_cast<uint64_t>(c / groups), static_cast<uint64_t>(kh), static_cast<uint64_t>(kw),
            static_cast<uint64_t>(sw), static_cast<uint64_t>(dw)};
    uint64_t owTile = std::min<uint64_t>(Align8(ow), MAX_OW_TILE);
    uint64_t ocBlock = std::min<uint64_t>(ocg, MAX_OC_BLOCK);
    while (UbBytes(geo, ocBlock, owTile) > UB_BUDGET) {
        if (4 * geo.cg * Align8(ocBlock * kh * kw) > UB_BUDGET / 2 && ocBlock > 1) {
            ocBlock = (ocBlock + 1) / 2;
        } else if (owTile > MIN_OW_TILE) {
            owTile = Align8(owTile / 2);
        } else if (ocBlock > 1) {
            ocBlock = (ocBlock + 1) / 2;
        } else if (owTile > 8) {
            owTile = Align8(owTile / 2);
        } else {
            return ge::GRAPH_FAILED;
        }
    }
    const uint64_t blocksPerGroup = CeilDiv(ocg, ocBlock);
    ocBlock = CeilDiv(ocg, blocksPerGroup);
    const uint64_t owTileNum = CeilDiv(ow, owTile);
    const uint64_t totalUnits = owTileNum * n * groups * blocksPerGroup * oh;
    if (totalUnits == 0 || totalUnits > 0xFFFFFFFFULL) {
        return ge::GRAPH_FAILED;
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint64_t coreNum = std::min<uint64_t>(std::max<uint64_t>(1, platform.GetCoreNumAiv()), totalUnits);

    Deconvolution2dTilingData td;
    td.set_batch(n);
    td.set_inC(c);
    td.set_inH(h);
    td.set_inW(w);
    td.set_outC(oc);
    td.set_outH(oh);
    td.set_outW(ow);
    td.set_kH(kh);
    td.set_kW(kw);
    td.set_strideH(sh);
    td.set_strideW(sw);
    td.set_padH(ph);
    td.set_padW(pw);
    td.set_dilationH(dh);
    td.set_dilationW(dw);
    td.set_groups(groups);
    td.set_inCPerGroup(geo.cg);
    td.set_outCPerGroup(ocg);
    td.set_ocBlock(ocBlock);
    td.set_blocksPerGroup(blocksPerGroup);
    td.set_wIcStride(Align8(ocBlock * kh * kw));
    td.set_owTile(owTile);
    td.set_owTileNum(owTileNum);
    td.set_rowCap(RowCap(geo, owTile));
    td.set_hasBias(context->GetOptionalInputShape(2) != nullptr ? 1 : 0);
    td.set_unitsPerCore(totalUnits / coreNum);
    td.set_unitsRemainder(totalUnits % coreNum);
    td.set_reserved(0);

    context->SetBlockDim(static_cast<uint32_t>(coreNum));
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
