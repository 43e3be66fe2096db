#include "conv2d_plane_standardize_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus Conv2dPlaneStandardizeTilingFunc(gert::TilingContext *context)
{
    auto xs = context->GetInputShape(0)->GetStorageShape();   // N, Cin, H, W
    auto ws = context->GetInputShape(1)->GetStorageShape();   // Cout, Cin, kH, kW
    if (xs.GetDimNum() != 4 || ws.GetDimNum() != 4 || xs.GetDim(1) != ws.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t cout = ws.GetDim(0), kh = ws.GetDim(2), kw = ws.GetDim(3);
    if (kh > h || kw > w) {
        return ge::GRAPH_FAILED;
    }
    uint32_t oh = h - kh + 1;
    uint32_t ow = w - kw + 1;
    uint32_t owAlign = (ow + 7) / 8 * 8;

    // UB use in the conv pass: kW*kH shifted input rows (x2 buffering), weights, acc row
    uint64_t convBytes = 2ULL * kw * kh * owAlign * 4 + ((uint64_t)cin * kh * kw + 8) * 4 + 3ULL * owAlign * 4;
    if (convBytes > 150 * 1024) {
        return ge::GRAPH_FAILED;
    }

    const auto *attrs = context->GetAttrs();
    float divisor = *attrs->GetAttrPointer<float>(0);
    const float *epsPtr = attrs->GetAttrPointer<float>(1);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = plat.GetCoreNumAiv();
    uint32_t planes = n * cout;
    uint32_t perCore = (planes + coreNum - 1) / coreNum;
    uint32_t blocks = (planes + perCore - 1) / perCore;

    Conv2dPlaneStandardizeTilingData td;
    td.set_n(n);
    td.set_cin(cin);
    td.set_h(h);
    td.set_w(w);
    td.set_cout(cout);
    td.set_kh(kh);
    td.set_kw(kw);
    td.set_oh(oh);
    td.set_ow(ow);
    td.set_owAlign(owAlign);
    td.set_planes(planes);
    td.set_planesPerCore(perCore);
    td.set_normChunk(8192);
    td.set_eps(epsPtr ? *epsPtr : 1e-5f);
    td.set_invDivisor(1.0f / divisor);

    context->SetBlockDim(blocks);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *wsSize = context->GetWorkspaceSizes(1);
    wsSize[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
