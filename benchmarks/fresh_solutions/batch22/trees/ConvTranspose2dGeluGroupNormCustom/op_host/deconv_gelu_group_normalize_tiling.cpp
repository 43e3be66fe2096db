#include "deconv_gelu_group_normalize_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

ge::graphStatus DeconvGeluGroupNormalizeTiling(gert::TilingContext *ctx)
{
    auto xs = ctx->GetInputShape(0)->GetStorageShape();   // [N, Cin, H, W]
    auto ws = ctx->GetInputShape(1)->GetStorageShape();   // [Cin, Cout, K, K] (transposed-conv layout)
    if (xs.GetDimNum() != 4 || ws.GetDimNum() != 4 || ws.GetDim(2) != ws.GetDim(3)) {
        return ge::GRAPH_FAILED;
    }
    const gert::RuntimeAttrs *attrs = ctx->GetAttrs();
    uint32_t stride = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    uint32_t groups = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(1));
    float eps = *attrs->GetAttrPointer<float>(2);

    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t cout = ws.GetDim(1), k = ws.GetDim(2);
    if (stride == 0 || groups == 0 || cout % groups != 0 || ws.GetDim(0) != cin) {
        return ge::GRAPH_FAILED;
    }
    uint32_t oh = (h - 1) * stride + k;
    uint32_t ow = (w - 1) * stride + k;
    // the transposed conv is evaluated as a plain correlation over an input that is
    // dilated by `stride` and zero padded by k-1 on each side
    uint32_t padH = (h - 1) * stride + 1 + 2 * (k - 1);
    uint32_t padW = (w - 1) * stride + 1 + 2 * (k - 1);
    uint32_t padWAlign = (padW + 7) / 8 * 8;

    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t units = n * groups;
    uint32_t per = (units + cores - 1) / cores;
    uint32_t used = (units + per - 1) / per;

    DeconvGeluGroupNormalizeTilingData td;
    td.set_n(n);
    td.set_cin(cin);
    td.set_h(h);
    td.set_w(w);
    td.set_cout(cout);
    td.set_k(k);
    td.set_stride(stride);
    td.set_oh(oh);
    td.set_ow(ow);
    td.set_owAlign((ow + 7) / 8 * 8);
    td.set_padH(padH);
    td.set_padW(padW);
    td.set_padWAlign(padWAlign);
    td.set_groups(groups);
    td.set_unitsPerCore(per);
    uint64_t scratch = static_cast<uint64_t>(cin) * padH * padWAlign;
    td.set_scratchPerCore(scratch);
    td.set_eps(eps);

    ctx->SetBlockDim(used);
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *wsz = ctx->GetWorkspaceSizes(1);
    wsz[0] = plat.GetLibApiWorkSpaceSize() + scratch * used * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
