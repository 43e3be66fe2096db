#include "deconv_depth_pool_softmax_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

ge::graphStatus DeconvDepthPoolSoftmaxTilingFunc(gert::TilingContext *context)
{
    auto x = context->GetInputShape(0)->GetStorageShape();   // [N, Cin, D, H, W]
    auto wt = context->GetInputShape(1)->GetStorageShape();  // [Cin, Cout, K, K, K]
    auto attrs = context->GetAttrs();
    int64_t pad = *attrs->GetAttrPointer<int64_t>(0);
    float scaling = *attrs->GetAttrPointer<float>(1);

    int64_t k = wt.GetDim(2);
    int64_t dOut = x.GetDim(2) + k - 1 - 2 * pad;
    int64_t hOut = x.GetDim(3) + k - 1 - 2 * pad;
    int64_t wOut = x.GetDim(4) + k - 1 - 2 * pad;
    // kw shifts are realised with DataCopyPad left padding (< one 32B block)
    if (pad < 0 || dOut <= 0 || hOut <= 0 || wOut <= 0 || k - 1 - pad >= 8 || pad >= 8 + k) {
        return ge::GRAPH_FAILED;
    }

    DeconvDepthPoolSoftmaxTiling t;
    t.set_n(x.GetDim(0));
    t.set_cin(x.GetDim(1));
    t.set_cout(wt.GetDim(1));
    t.set_d(x.GetDim(2));
    t.set_h(x.GetDim(3));
    t.set_w(x.GetDim(4));
    t.set_k(k);
    t.set_pad(pad);
    t.set_dOut(dOut);
    t.set_hOut(hOut);
    t.set_wOut(wOut);
    t.set_pitch((wOut + 7) / 8 * 8);
    t.set_planeChunk(4096);
    t.set_scaling(scaling);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    context->SetBlockDim(plat.GetCoreNumAiv());
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());

    // depth-collapsed input: [N][K][Cin][H][W]
    size_t collapsed = static_cast<size_t>(x.GetDim(0)) * k * x.GetDim(1) * x.GetDim(3) * x.GetDim(4);
    context->GetWorkspaceSizes(1)[0] = plat.GetLibApiWorkSpaceSize() + collapsed * sizeof(float);
    return ge::GRAPH_SUCCESS;
}

} // namespace optiling
