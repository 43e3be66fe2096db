#include "channelwise_conv2d_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t kVecKey = 1;      // unit width stride, left pad within one 32B block
constexpr uint32_t kScalarKey = 2;   // anything else
constexpr uint32_t kMaxLeadPad = 8;
constexpr uint32_t kMaxRowBytes = 48 * 1024;

bool ReadPair(const gert::RuntimeAttrs* attrs, size_t idx, int64_t dflt, int64_t& a, int64_t& b)
{
    const gert::ContinuousVector* v = attrs->GetAttrPointer<gert::ContinuousVector>(idx);
    if (v == nullptr || v->GetSize() == 0) {
        a = b = dflt;
        return true;
    }
    const int64_t* d = static_cast<const int64_t*>(v->GetData());
    if (v->GetSize() == 1) {
        a = b = d[0];
    } else if (v->GetSize() == 2) {
        a = d[0];
        b = d[1];
    } else {
        return false;
    }
    return true;
}
}  // namespace

ge::graphStatus ChannelwiseConv2dTilingFunc(gert::TilingContext* context)
{
    const auto& xs = context->GetInputShape(0)->GetStorageShape();
    const auto& ws = context->GetInputShape(1)->GetStorageShape();   // [C, 1, KH, KW]
    if (xs.GetDimNum() != 4 || ws.GetDimNum() != 4 || ws.GetDim(0) != xs.GetDim(1) || ws.GetDim(1) != 1) {
        return ge::GRAPH_FAILED;
    }
    int64_t sh, sw, ph, pw, dh, dw;
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    if (!ReadPair(attrs, 0, 1, sh, sw) || !ReadPair(attrs, 1, 0, ph, pw) || !ReadPair(attrs, 2, 1, dh, dw)) {
        return ge::GRAPH_FAILED;
    }
    if (sh <= 0 || sw <= 0 || dh <= 0 || dw <= 0 || ph < 0 || pw < 0) {
        return ge::GRAPH_FAILED;
    }

    const int64_t n = xs.GetDim(0), c = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    const int64_t kh = ws.GetDim(2), kw = ws.GetDim(3);
    if (kh * kw > 1024) {
        return ge::GRAPH_FAILED;   // the kernel keeps one filter in a 1024-entry scalar table
    }
    const int64_t oh = (h + 2 * ph - dh * (kh - 1) - 1) / sh + 1;
    const int64_t ow = (w + 2 * pw - dw * (kw - 1) - 1) / sw + 1;
    if (oh <= 0 || ow <= 0) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t owAlign = static_cast<uint32_t>((ow + 7) / 8 * 8);

    const bool vec = (sw == 1) && (pw <= kMaxLeadPad) && (owAlign * sizeof(float) <= kMaxRowBytes);
    context->SetTilingKey(vec ? kVecKey : kScalarKey);

    ChannelwiseConv2dTilingData td;
    const uint32_t planes = static_cast<uint32_t>(n * c);
    td.set_planes(planes);
    td.set_channels(static_cast<uint32_t>(c));
    td.set_inH(static_cast<uint32_t>(h));
    td.set_inW(static_cast<uint32_t>(w));
    td.set_outH(static_cast<uint32_t>(oh));
    td.set_outW(static_cast<uint32_t>(ow));
    td.set_outWAlign(owAlign);
    td.set_kH(static_cast<uint32_t>(kh));
    td.set_kW(static_cast<uint32_t>(kw));
    td.set_strideH(static_cast<uint32_t>(sh));
    td.set_strideW(static_cast<uint32_t>(sw));
    td.set_padH(static_cast<uint32_t>(ph));
    td.set_padW(static_cast<uint32_t>(pw));
    td.set_dilH(static_cast<uint32_t>(dh));
    td.set_dilW(static_cast<uint32_t>(dw));
    td.set_hasBias(context->GetOptionalInputShape(2) != nullptr ? 1 : 0);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t used = planes < cores ? planes : cores;
    used = used == 0 ? 1 : used;
    td.set_planesPerCore(planes / used);
    td.set_planesRem(planes % used);

    context->SetBlockDim(used);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
