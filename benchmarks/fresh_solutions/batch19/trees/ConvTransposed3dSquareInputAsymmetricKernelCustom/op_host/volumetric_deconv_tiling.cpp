/**
 * @file volumetric_deconv_tiling.cpp
 * Host tiling for VolumetricDeconv.
 *
 * The output is viewed as a list of W-lines, one per (n, oc, od, oh). Every
 * AI vector core takes a contiguous range of lines, so no two cores ever write
 * the same output element and no atomic accumulation is required.
 */
#include "volumetric_deconv_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t ATTR_STRIDES = 0;
constexpr uint32_t ATTR_PADS = 1;
constexpr uint32_t ATTR_OUT_PADS = 2;
constexpr uint32_t ATTR_GROUPS = 3;
constexpr uint64_t UB_RESERVE = 8 * 1024;

inline uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

inline int64_t ListAt(const gert::ContinuousVector *v, size_t i, int64_t dflt)
{
    if (v == nullptr || v->GetSize() <= i) {
        return dflt;
    }
    return reinterpret_cast<const int64_t *>(v->GetData())[i];
}
}  // namespace

ge::graphStatus VolumetricDeconvTilingFunc(gert::TilingContext *context)
{
    const gert::StorageShape *xShape = context->GetInputShape(0);
    const gert::StorageShape *wShape = context->GetInputShape(1);
    if (xShape == nullptr || wShape == nullptr) {
        return ge::GRAPH_FAILED;
    }
    const gert::Shape &xs = xShape->GetStorageShape();
    const gert::Shape &ws = wShape->GetStorageShape();
    if (xs.GetDimNum() != 5 || ws.GetDimNum() != 5) {
        return ge::GRAPH_FAILED;
    }

    auto attrs = context->GetAttrs();
    const auto *strides = attrs->GetListInt(ATTR_STRIDES);
    const auto *pads = attrs->GetListInt(ATTR_PADS);
    const auto *outPads = attrs->GetListInt(ATTR_OUT_PADS);
    const int64_t *groupsPtr = attrs->GetAttrPointer<int64_t>(ATTR_GROUPS);
    const uint32_t groups = groupsPtr == nullptr ? 1U : static_cast<uint32_t>(*groupsPtr);

    const uint32_t n = xs.GetDim(0), cin = xs.GetDim(1);
    const uint32_t di = xs.GetDim(2), hi = xs.GetDim(3), wi = xs.GetDim(4);
    const uint32_t kd = ws.GetDim(2), kh = ws.GetDim(3), kw = ws.GetDim(4);
    const uint32_t cout = ws.GetDim(1) * groups;
    if (groups == 0 || cin % groups != 0 || ws.GetDim(0) != cin) {
        return ge::GRAPH_FAILED;
    }

    const int64_t sd = ListAt(strides, 0, 1), sh = ListAt(strides, 1, 1), sw = ListAt(strides, 2, 1);
    const int64_t pd = ListAt(pads, 0, 0), ph = ListAt(pads, 1, 0), pw = ListAt(pads, 2, 0);
    const int64_t od = (di - 1) * sd - 2 * pd + kd + ListAt(outPads, 0, 0);
    const int64_t oh = (hi - 1) * sh - 2 * ph + kh + ListAt(outPads, 1, 0);
    const int64_t ow = (wi - 1) * sw - 2 * pw + kw + ListAt(outPads, 2, 0);
    if (od <= 0 || oh <= 0 || ow <= 0) {
        return ge::GRAPH_FAILED;
    }

    // The kernel keeps one input line, one output line, the per-kw gather
    // tables and a weight slice resident in UB. Check that it fits.
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const uint64_t owPad = AlignUp(static_cast<uint32_t>(ow), 8);
    const uint64_t need = sizeof(float) * (8 + AlignUp(wi, 8)) +        // input line + zero slot
                          sizeof(float) * owPad * 2 * 2 +                // out line (x2) + gather scratch
                          sizeof(uint32_t) * owPad * kw +                // gather offsets
                          sizeof(float) * (cin / groups) * AlignUp(kd * kh * kw, 8) + UB_RESERVE;
    if (need > ubSize) {
        return ge::GRAPH_FAILED;
    }

    VolumetricDeconvTilingData tiling;
    tiling.set_batch(n);
    tiling.set_inChannels(cin);
    tiling.set_inD(di);
    tiling.set_inH(hi);
    tiling.set_inW(wi);
    tiling.set_outChannels(cout);
    tiling.set_outD(static_cast<uint32_t>(od));
    tiling.set_outH(static_cast<uint32_t>(oh));
    tiling.set_outW(static_cast<uint32_t>(ow));
    tiling.set_kD(kd);
    tiling.set_kH(kh);
    tiling.set_kW(kw);
    tiling.set_strideD(static_cast<uint32_t>(sd));
    tiling.set_strideH(static_cast<uint32_t>(sh));
    tiling.set_strideW(static_cast<uint32_t>(sw));
    tiling.set_padD(static_cast<uint32_t>(pd));
    tiling.set_padH(static_cast<uint32_t>(ph));
    tiling.set_padW(static_cast<uint32_t>(pw));
    tiling.set_groups(groups);
    tiling.set_hasBias(context->GetOptionalInputShape(2) != nullptr ? 1U : 0U);

    const uint32_t totalRows = n * cout * static_cast<uint32_t>(od) * static_cast<uint32_t>(oh);
    uint32_t coreNum = platform.GetCoreNumAiv();
    coreNum = coreNum == 0 ? 1 : coreNum;
    uint32_t rowsPerCore = (totalRows + coreNum - 1) / coreNum;
    uint32_t usedCores = (totalRows + rowsPerCore - 1) / rowsPerCore;
    tiling.set_totalRows(totalRows);
    tiling.set_rowsPerCore(rowsPerCore);

    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *ws0 = context->GetWorkspaceSizes(1);
    ws0[0] = platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
