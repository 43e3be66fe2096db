#include "deconv2d_clip_gelu_scale_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t UB_BUDGET = 160 * 1024;   // bytes of UB we allow the row-block buffers to use
inline uint32_t Up8(uint32_t v) { return (v + 7) / 8 * 8; }
}

ge::graphStatus Deconv2dClipGeluScaleTilingFunc(gert::TilingContext *ctx)
{
    const auto xs = ctx->GetInputShape(0)->GetStorageShape();   // [N, Cin, H, W]
    const auto ws = ctx->GetInputShape(1)->GetStorageShape();   // [Cin, Cout, kH, kW]
    const auto *attrs = ctx->GetAttrs();
    const uint32_t stride = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    const float addValue = *attrs->GetAttrPointer<float>(1);
    const float mulValue = *attrs->GetAttrPointer<float>(2);

    const uint32_t N = xs.GetDim(0), Cin = xs.GetDim(1), H = xs.GetDim(2), W = xs.GetDim(3);
    const uint32_t Cout = ws.GetDim(1), KH = ws.GetDim(2), KW = ws.GetDim(3);
    if (ws.GetDim(0) != Cin || stride == 0) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t OH = (H - 1) * stride + KH;
    const uint32_t OW = (W - 1) * stride + KW;
    const uint32_t owA = Up8(OW);
    const uint32_t upWA = Up8((W - 1) * stride + 1 + 2 * (KW - 1));

    // UB use per task: KW shifted copies of (R + KH - 1) up-sampled rows,
    // plus accumulator / temp / output rows (3 x R x owA), plus one input row block.
    uint32_t rows = 32;
    while (rows > 1) {
        const uint32_t need = (KW * (rows + KH - 1) * upWA + 3 * rows * owA + Up8(W) * (rows + KH)) * 4;
        if (need <= UB_BUDGET) {
            break;
        }
        rows /= 2;
    }
    if (rows > OH) {
        rows = OH;
    }
    const uint32_t blocks = (OH + rows - 1) / rows;

    Deconv2dClipGeluScaleTilingData td;
    td.set_batch(N); td.set_cin(Cin); td.set_cout(Cout);
    td.set_inH(H); td.set_inW(W); td.set_kH(KH); td.set_kW(KW); td.set_stride(stride);
    td.set_outH(OH); td.set_outW(OW); td.set_outWAlign(owA); td.set_upWAlign(upWA);
    td.set_rowsPerTask(rows); td.set_rowBlocks(blocks);
    td.set_taskNum(N * Cout * blocks);
    td.set_addValue(addValue); td.set_mulValue(mulValue);

    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > td.get_taskNum()) {
        cores = td.get_taskNum();
    }
    ctx->SetBlockDim(cores);
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());
    ctx->GetWorkspaceSizes(1)[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}
