#include "conv3d_softmax_cascade_pool_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
inline uint32_t Up8(uint32_t v) { return (v + 7) / 8 * 8; }
inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// bytes of UB the kernel needs when one work item covers `tileOw` pooled columns
uint64_t UbBytes(uint32_t cout, uint32_t taps, uint32_t win, uint32_t tileOw)
{
    uint32_t convW = Up8(tileOw * win);
    uint64_t f = 0;
    f += (uint64_t)2 * cout * convW;           // conv accumulators + running pool max
    f += (uint64_t)2 * taps * convW;           // shifted input rows, double buffered
    f += (uint64_t)2 * cout * Up8(taps);       // filter slice per input channel, double buffered
    f += (uint64_t)2 * convW;                  // channel max / channel sum
    f += (uint64_t)2 * cout * Up8(tileOw);     // pooled output, double buffered
    f += Up8(cout);                            // bias
    return f * sizeof(float);
}
}  // namespace

ge::graphStatus Conv3dSoftmaxCascadePoolTilingFunc(gert::TilingContext *context)
{
    auto xs = context->GetInputShape(0)->GetStorageShape();
    auto ws = context->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 5 || ws.GetDimNum() != 5 || xs.GetDim(1) != ws.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    const int64_t *p1 = attrs->GetAttrPointer<int64_t>(0);
    const int64_t *p2 = attrs->GetAttrPointer<int64_t>(1);
    uint32_t win = static_cast<uint32_t>((p1 ? *p1 : 2) * (p2 ? *p2 : 2));

    uint32_t N = xs.GetDim(0), C = xs.GetDim(1), D = xs.GetDim(2), H = xs.GetDim(3), W = xs.GetDim(4);
    uint32_t O = ws.GetDim(0), KD = ws.GetDim(2), KH = ws.GetDim(3), KW = ws.GetDim(4);
    if (D < KD || H < KH || W < KW || win == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t oD = (D - KD + 1) / win;
    uint32_t oH = (H - KH + 1) / win;
    uint32_t oW = (W - KW + 1) / win;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    ub -= 8 * 1024;
    uint32_t taps = KD * KH * KW;

    uint32_t tileOw = oW == 0 ? 1 : oW;
    while (tileOw > 1 && UbBytes(O, taps, win, tileOw) > ub) {
        tileOw = (tileOw + 1) / 2;
    }
    if (UbBytes(O, taps, win, tileOw) > ub) {
        return ge::GRAPH_FAILED;
    }
    uint32_t owTiles = oW == 0 ? 0 : CeilDiv(oW, tileOw);
    uint32_t total = N * oD * oH * owTiles;
    uint32_t cores = plat.GetCoreNumAiv();

    Conv3dSoftmaxCascadePoolTiling t;
    t.set_batch(N);
    t.set_cin(C);
    t.set_inD(D);
    t.set_inH(H);
    t.set_inW(W);
    t.set_cout(O);
    t.set_kd(KD);
    t.set_kh(KH);
    t.set_kw(KW);
    t.set_win(win);
    t.set_outD(oD);
    t.set_outH(oH);
    t.set_outW(oW);
    t.set_tileOw(tileOw);
    t.set_owTiles(owTiles);
    t.set_totalItems(total);

    context->SetBlockDim(total == 0 ? 1 : (total < cores ? total : cores));
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
