#include "transposed_conv2d_saturate_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
inline uint32_t Up8(uint32_t v) { return (v + 7) & ~7U; }
}

ge::graphStatus TransposedConv2dSaturateTilingFunc(gert::TilingContext *context)
{
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();  // N, Cin, H, W
    const gert::Shape &ws = context->GetInputShape(1)->GetStorageShape();  // Cin, Cout, kH, kW
    if (xs.GetDimNum() != 4 || ws.GetDimNum() != 4 || xs.GetDim(1) != ws.GetDim(0)) {
        return ge::GRAPH_FAILED;
    }
    const auto *attrs = context->GetAttrs();
    uint32_t stride = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    uint32_t pad = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(1));
    uint32_t outPad = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(2));
    float scale = *attrs->GetAttrPointer<float>(3);
    if (stride == 0 || scale == 0.0f) {
        return ge::GRAPH_FAILED;
    }

    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t cout = ws.GetDim(1), kh = ws.GetDim(2), kw = ws.GetDim(3);
    uint32_t oh = (h - 1) * stride - 2 * pad + kh + outPad;
    uint32_t ow = (w - 1) * stride - 2 * pad + kw + outPad;
    uint32_t phaseLen = (ow + stride - 1) / stride;

    // the staged row keeps zeros on both sides so that every shifted gather
    // index lands inside the buffer; the widest shift is bounded by kW + pad
    uint32_t lead = Up8((kw + pad) / stride + 1);
    uint32_t stage = Up8(lead + w + phaseLen + lead);

    TransposedConv2dSaturateTilingData td;
    td.set_batch(n);
    td.set_inC(cin);
    td.set_inH(h);
    td.set_inW(w);
    td.set_outC(cout);
    td.set_outH(oh);
    td.set_outW(ow);
    td.set_kH(kh);
    td.set_kW(kw);
    td.set_stride(stride);
    td.set_pad(pad);
    td.set_phaseLen(phaseLen);
    td.set_phaseAlign(Up8(phaseLen));
    td.set_outWAlign(Up8(ow));
    td.set_leadPad(lead);
    td.set_stageLen(stage);
    td.set_tapStride(Up8(kh * kw));
    td.set_scale(scale);

    uint64_t ub = (uint64_t)stage * 4 * 2                 // staged input rows
                + (uint64_t)kw * Up8(phaseLen) * 4 * 2    // gather tables + shifted row
                + (uint64_t)stride * Up8(phaseLen) * 4    // phase accumulators
                + (uint64_t)Up8(ow) * 4 * 3               // interleave table + out rows
                + (uint64_t)cin * Up8(kh * kw) * 4;       // weights of one output channel
    if (ub > 180 * 1024) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t rows = n * cout * oh;
    uint32_t per = (rows + cores - 1) / cores;
    td.set_totalRows(rows);
    td.set_rowsPerCore(per);

    context->SetBlockDim((rows + per - 1) / per);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *wsz = context->GetWorkspaceSizes(1);
    wsz[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
