/**
 * @file direct_conv2d_tiling.cpp
 * @brief Host tiling for DirectConv2d.
 *
 * Unit of work: (output column tile, image, group, channel block, output row).  Units are
 * ordered so that the output row varies fastest: a core handles runs of rows that share the
 * same filter block, which therefore only has to be loaded into UB once per run.
 */
#include <algorithm>
#include "direct_conv2d_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint64_t UB_BUDGET = 180 * 1024;
constexpr uint64_t MAX_OW_TILE = 512;
constexpr uint64_t MIN_OW_TILE = 64;
constexpr uint64_t MAX_OC_BLOCK = 64;

inline uint64_t Align8(uint64_t v) { return (v + 7) / 8 * 8; }
inline uint64_t CeilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

struct ConvGeom {
    uint64_t kW, sW, dW, wPerOc;
};

uint64_t RowCap(const ConvGeom& g, uint64_t owTile)
{
    return Align8((owTile - 1) * g.sW + (g.kW - 1) * g.dW + 1) + 8;
}

uint64_t UbBytes(const ConvGeom& g, uint64_t ocBlock, uint64_t owTile)
{
    uint64_t elems = Align8(ocBlock * g.wPerOc);     // resident filter block
    elems += Align8(ocBlock);                       // bias block
    elems += ocBlock * owTile;                      // accumulator
    elems += 2 * RowCap(g, owTile);                 // double-buffered input rows
    elems += 2 * owTile;                            // tap + gather offsets
    return elems * 4;
}

int64_t ListAt(const gert::TypedContinuousVector<int64_t>* v, size_t i, int64_t dflt)
{
    if (v == nullptr || v->GetSize() == 0) {
        return dflt;
    }
    return (i < v->GetSize()) ? v->GetData()[i] : v->GetData()[v->GetSize() - 1];
}
} // namespace

ge::graphStatus DirectConv2dTilingFunc(gert::TilingContext* context)
{
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& ws = context->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 4 || ws.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    const auto* strides = attrs->GetListInt(0);
    const auto* pads = attrs->GetListInt(1);
    const auto* dilations = attrs->GetListInt(2);
    const int64_t* groupsAttr = attrs->GetAttrPointer<int64_t>(3);

    const int64_t n = xs.GetDim(0), c = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    const int64_t oc = ws.GetDim(0), cg = ws.GetDim(1), kh = ws.GetDim(2), kw = ws.GetDim(3);
    const int64_t sh = ListAt(strides, 0, 1), sw = ListAt(strides, 1, 1);
    const int64_t ph = ListAt(pads, 0, 0), pw = ListAt(pads, 1, 0);
    const int64_t dh = ListAt(dilations, 0, 1), dw = ListAt(dilations, 1, 1);
    const int64_t groups = (groupsAttr != nullptr && *groupsAttr > 0) ? *groupsAttr : 1;
    if (sh <= 0 || sw <= 0 || dh <= 0 || dw <= 0 || ph < 0 || pw < 0 ||
        c % groups != 0 || oc % groups != 0 || c / groups != cg) {
        return ge::GRAPH_FAILED;
    }
    const int64_t oh = (h + 2 * ph - dh * (kh - 1) - 1) / sh + 1;
    const int64_t ow = (w + 2 * pw - dw * (kw - 1) - 1) / sw + 1;
    if (oh <= 0 || ow <= 0) {
        return ge::GRAPH_FAILED;
    }
    const uint64_t ocg = static_cast<uint64_t>(oc / groups);

    ConvGeom geom{static_cast<uint64_t>(kw), static_cast<uint64_t>(sw), static_cast<uint64_t>(dw),
                  static_cast<uint64_t>(cg * kh * kw)};
    uint64_t owTile = std::min<uint64_t>(Align8(ow), MAX_OW_TILE);
    uint64_t ocBlock = std::min<uint64_t>(ocg, MAX_OC_BLOCK);
    while (UbBytes(geom, ocBlock, owTile) > UB_BUDGET) {
        if (4 * ocBlock * geom.wPerOc > UB_BUDGET / 2 && ocBlock > 1) {
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
    const uint64_t owTileNum = CeilDiv(static_cast<uint64_t>(ow), owTile);
    const uint64_t totalUnits = owTileNum * static_cast<uint64_t>(n) * static_cast<uint64_t>(groups) *
                                blocksPerGroup * static_cast<uint64_t>(oh);
    if (totalUnits == 0 || totalUnits > 0xFFFFFFFFULL) {
        return ge::GRAPH_FAILED;
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint64_t coreNum = std::min<uint64_t>(std::max<uint64_t>(1, platform.GetCoreNumAiv()), totalUnits);

    DirectConv2dTilingData td;
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
    td.set_inCPerGroup(cg);
    td.set_outCPerGroup(ocg);
    td.set_ocBlock(ocBlock);
    td.set_blocksPerGroup(blocksPerGroup);
    td.set_owTile(owTile);
    td.set_owTileNum(owTileNum);
    td.set_rowCap(RowCap(geom, owTile));
    td.set_hasBias(context->GetOptionalInputShape(2) != nullptr ? 1 : 0);
    td.set_totalUnits(totalUnits);
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
