#include "direct_conv_bias_relu_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

ge::graphStatus DirectConvBiasReluTilingFunc(gert::TilingContext *ctx)
{
    const gert::Shape &x = ctx->GetInputShape(0)->GetStorageShape();   // N C H W
    const gert::Shape &w = ctx->GetInputShape(1)->GetStorageShape();   // Co Ci KH KW
    if (x.GetDimNum() != 4 || w.GetDimNum() != 4 || x.GetDim(1) != w.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    const gert::RuntimeAttrs *attrs = ctx->GetAttrs();
    int64_t sh = *attrs->GetAttrPointer<int64_t>(0);
    int64_t sw = *attrs->GetAttrPointer<int64_t>(1);
    int64_t ph = *attrs->GetAttrPointer<int64_t>(2);
    int64_t pw = *attrs->GetAttrPointer<int64_t>(3);
    if (sh <= 0 || sw <= 0 || ph < 0 || pw < 0) {
        return ge::GRAPH_FAILED;
    }

    int64_t n = x.GetDim(0), c = x.GetDim(1), h = x.GetDim(2), wd = x.GetDim(3);
    int64_t co = w.GetDim(0), kh = w.GetDim(2), kw = w.GetDim(3);
    int64_t oh = (h + 2 * ph - kh) / sh + 1;
    int64_t ow = (wd + 2 * pw - kw) / sw + 1;
    if (oh <= 0 || ow <= 0) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t planes = static_cast<uint32_t>(n * co);
    uint32_t per = (planes + cores - 1) / cores;
    uint32_t used = (planes + per - 1) / per;

    DirectConvBiasReluTiling t;
    t.set_batch(n);
    t.set_cin(c);
    t.set_inH(h);
    t.set_inW(wd);
    t.set_cout(co);
    t.set_kh(kh);
    t.set_kw(kw);
    t.set_strideH(sh);
    t.set_strideW(sw);
    t.set_padH(ph);
    t.set_padW(pw);
    t.set_outH(oh);
    t.set_outW(ow);
    t.set_planesPerCore(per);
    t.set_totalPlanes(planes);

    // fp16 and fp32 share one kernel body; the key only selects the element type
    ctx->SetTilingKey(ctx->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 1 : 0);
    ctx->SetBlockDim(used);
    t.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(t.GetDataSize());
    size_t *ws = ctx->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
