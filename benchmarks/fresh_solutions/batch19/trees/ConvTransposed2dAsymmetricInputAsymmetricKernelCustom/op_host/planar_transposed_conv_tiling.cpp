#include "planar_transposed_conv_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
enum AttrIdx : uint32_t { STRIDES = 0, PADS, OUTPUT_PADDING, DILATIONS, GROUPS };

int64_t Nth(const gert::ContinuousVector *v, size_t i, int64_t fallback)
{
    if (v == nullptr || i >= v->GetSize()) {
        return fallback;
    }
    return static_cast<const int64_t *>(v->GetData())[i];
}

uint32_t Align8(uint32_t v) { return (v + 7U) / 8U * 8U; }
}  // namespace

ge::graphStatus PlanarTransposedConvTilingFunc(gert::TilingContext *context)
{
    auto xShape = context->GetInputShape(0)->GetStorageShape();
    auto wShape = context->GetInputShape(1)->GetStorageShape();
    if (xShape.GetDimNum() != 4 || wShape.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    auto attrs = context->GetAttrs();
    const auto *st = attrs->GetListInt(STRIDES);
    const auto *pd = attrs->GetListInt(PADS);
    const auto *op = attrs->GetListInt(OUTPUT_PADDING);
    const auto *dl = attrs->GetListInt(DILATIONS);
    const int64_t *gp = attrs->GetAttrPointer<int64_t>(GROUPS);

    PlanarTransposedConvTilingData td;
    const uint32_t groups = gp ? static_cast<uint32_t>(*gp) : 1U;
    const uint32_t ci = xShape.GetDim(1);
    if (groups == 0 || ci % groups != 0 || wShape.GetDim(0) != ci) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t hi = xShape.GetDim(2), wi = xShape.GetDim(3);
    const uint32_t kh = wShape.GetDim(2), kw = wShape.GetDim(3);
    if (kh > 32) {  // the kernel keeps the per-row kh hit list on the stack
        return ge::GRAPH_FAILED;
    }
    const int64_t sh = Nth(st, 0, 1), sw = Nth(st, 1, 1);
    const int64_t ph = Nth(pd, 0, 0), pw = Nth(pd, 1, 0);
    const int64_t dh = Nth(dl, 0, 1), dw = Nth(dl, 1, 1);
    const int64_t ho = (hi - 1) * sh - 2 * ph + dh * (kh - 1) + 1 + Nth(op, 0, 0);
    const int64_t wo = (wi - 1) * sw - 2 * pw + dw * (kw - 1) + 1 + Nth(op, 1, 0);
    if (ho <= 0 || wo <= 0) {
        return ge::GRAPH_FAILED;
    }

    td.set_n(xShape.GetDim(0));
    td.set_ci(ci);
    td.set_hi(hi);
    td.set_wi(wi);
    td.set_co(wShape.GetDim(1) * groups);
    td.set_ho(static_cast<uint32_t>(ho));
    td.set_wo(static_cast<uint32_t>(wo));
    td.set_kh(kh);
    td.set_kw(kw);
    td.set_sh(static_cast<uint32_t>(sh));
    td.set_sw(static_cast<uint32_t>(sw));
    td.set_ph(static_cast<uint32_t>(ph));
    td.set_pw(static_cast<uint32_t>(pw));
    td.set_dh(static_cast<uint32_t>(dh));
    td.set_dw(static_cast<uint32_t>(dw));
    td.set_groups(groups);
    td.set_withBias(context->GetOptionalInputShape(2) == nullptr ? 0U : 1U);

    // UB budget: 2 input lines, 2 output lines, kw gather tables, 1 scratch line,
    // the weight slice of one output channel.
    auto soc = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    soc.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    const uint64_t woA = Align8(static_cast<uint32_t>(wo));
    const uint64_t bytes = 4ULL * (2 * (8 + Align8(wi)) + 3 * woA + kw * woA + (ci / groups) * Align8(kh * kw));
    if (bytes + 4096 > ub) {
        return ge::GRAPH_FAILED;
    }

    uint32_t cores = soc.GetCoreNumAiv();
    cores = cores == 0 ? 1 : cores;
    const uint32_t rows = td.get_n() * td.get_co() * td.get_ho();
    const uint32_t used = rows < cores ? rows : cores;
    td.set_rowsTotal(rows);
    td.set_rowsBase(rows / used);
    td.set_rowsExtra(rows % used);
    context->SetBlockDim(used);

    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
