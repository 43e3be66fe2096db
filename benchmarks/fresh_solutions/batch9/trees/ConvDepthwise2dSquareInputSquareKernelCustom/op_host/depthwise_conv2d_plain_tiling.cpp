#include "depthwise_conv2d_plain_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
inline uint32_t Up(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }
}

ge::graphStatus DepthwiseConv2dPlainTilingFunc(gert::TilingContext *context)
{
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();   // (N, C, H, W)
    const gert::Shape &ws = context->GetInputShape(1)->GetStorageShape();   // (C, 1, K, K)
    if (xs.GetDimNum() != 4 || ws.GetDimNum() != 4 || ws.GetDim(0) != xs.GetDim(1) || ws.GetDim(1) != 1 ||
        ws.GetDim(2) != ws.GetDim(3)) {
        return ge::GRAPH_FAILED;
    }
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    const int64_t *strideAttr = attrs->GetAttrPointer<int64_t>(0);
    const int64_t *padAttr = attrs->GetAttrPointer<int64_t>(1);
    uint32_t stride = strideAttr ? static_cast<uint32_t>(*strideAttr) : 1;
    uint32_t pad = padAttr ? static_cast<uint32_t>(*padAttr) : 0;

    uint32_t n = xs.GetDim(0), c = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t k = ws.GetDim(2);
    if (stride == 0 || k > 16 || h + 2 * pad < k || w + 2 * pad < k) {
        return ge::GRAPH_FAILED;
    }
    uint32_t oh = (h + 2 * pad - k) / stride + 1;
    uint32_t ow = (w + 2 * pad - k) / stride + 1;

    uint32_t lead = Up(pad, 16);
    uint32_t rowLen = Up(lead + w + pad, 64);
    uint32_t owPad = Up(ow, 64);
    // UB: k staged rows (fp32 + raw) , k*k offset tables, accumulator, gathered tap, output
    uint64_t ub = static_cast<uint64_t>(k) * rowLen * 6 + static_cast<uint64_t>(k) * owPad * 4 + owPad * 4 * 4;
    if (ub > 180 * 1024) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t cores = plat.GetCoreNumAiv();
    uint64_t units = static_cast<uint64_t>(n) * c * oh;
    uint64_t per = (units + cores - 1) / cores;

    DepthwiseConv2dPlainTiling td;
    td.set_batch(n);
    td.set_channels(c);
    td.set_inH(h);
    td.set_inW(w);
    td.set_kernel(k);
    td.set_stride(stride);
    td.set_pad(pad);
    td.set_outH(oh);
    td.set_outW(ow);
    td.set_outWPad(owPad);
    td.set_lead(lead);
    td.set_rowLen(rowLen);
    td.set_unitsPerCore(per);
    td.set_hasBias(context->GetOptionalInputShape(2) != nullptr ? 1 : 0);

    context->SetBlockDim(static_cast<uint32_t>((units + per - 1) / per));
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}
