#include "volume_conv_group_norm_clip_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t KEY_GENERAL = 0;
constexpr uint32_t KEY_CONSTANT = 1;   // min(v, cap) then clamp(lo, hi) with cap <= lo is constant
constexpr uint32_t UB_CONV_BUDGET = 150 * 1024;
constexpr uint32_t NORM_CHUNK = 8192;
}  // namespace

ge::graphStatus VolumeConvGroupNormClipTiling(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();  // [N, Cin, D, H, W]
    const gert::Shape &ws = context->GetInputShape(1)->GetStorageShape();  // [Cout, Cin, k, k, k]
    if (xs.GetDimNum() != 5 || ws.GetDimNum() != 5 || xs.GetDim(1) != ws.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    const auto *attrs = context->GetAttrs();
    int64_t groups = *attrs->GetAttrPointer<int64_t>(0);
    float eps = *attrs->GetAttrPointer<float>(1);
    float cap = *attrs->GetAttrPointer<float>(2);
    float lo = *attrs->GetAttrPointer<float>(3);
    float hi = *attrs->GetAttrPointer<float>(4);

    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1), d = xs.GetDim(2), h = xs.GetDim(3), w = xs.GetDim(4);
    uint32_t cout = ws.GetDim(0), k = ws.GetDim(2);
    if (groups <= 0 || cout % groups != 0 || d < k || h < k || w < k) {
        return ge::GRAPH_FAILED;
    }
    uint32_t od = d - k + 1, oh = h - k + 1, ow = w - k + 1;
    uint32_t owA = (ow + 7) / 8 * 8;
    uint32_t cpg = cout / static_cast<uint32_t>(groups);

    // UB: double-buffered input tile + cpg accumulators, each [rows, owA] fp32,
    // plus the group's weights
    uint32_t wBytes = cpg * cin * k * k * k * 4;
    uint32_t rowBytes = owA * 4;
    if (wBytes + rowBytes * (cpg + 2) > UB_CONV_BUDGET) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rows = (UB_CONV_BUDGET - wBytes) / (rowBytes * (cpg + 2));
    rows = rows > oh ? oh : rows;
    rows = rows > 4095 ? 4095 : rows;

    VolumeConvGroupNormClipTilingData td;
    td.set_batch(n);
    td.set_cin(cin);
    td.set_inD(d);
    td.set_inH(h);
    td.set_inW(w);
    td.set_cout(cout);
    td.set_ksize(k);
    td.set_outD(od);
    td.set_outH(oh);
    td.set_outW(ow);
    td.set_outWAlign(owA);
    td.set_groups(static_cast<uint32_t>(groups));
    td.set_chPerGroup(cpg);
    td.set_rowsPerStep(rows);
    td.set_normChunk(NORM_CHUNK);
    td.set_totalUnits(n * static_cast<uint32_t>(groups));
    td.set_totalOut(static_cast<uint64_t>(n) * cout * od * oh * ow);
    td.set_eps(eps);
    td.set_cap(cap);
    td.set_clipLow(lo);
    td.set_clipHigh(hi);

    uint32_t cores = plat.GetCoreNumAiv();
    bool constant = (cap <= lo) && (lo <= hi);
    context->SetTilingKey(constant ? KEY_CONSTANT : KEY_GENERAL);
    uint32_t units = n * static_cast<uint32_t>(groups);
    context->SetBlockDim(constant ? cores : (units < cores ? units : cores));

    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
