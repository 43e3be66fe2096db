#include "conv2d_affine_act_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus Conv2dAffineActTilingFunc(gert::TilingContext *ctx)
{
    auto xShape = ctx->GetInputShape(0)->GetStorageShape();
    auto wShape = ctx->GetInputShape(1)->GetStorageShape();
    auto attrs = ctx->GetAttrs();
    uint32_t stride = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    uint32_t pad = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(1));
    bool relu = *attrs->GetAttrPointer<bool>(2);

    uint32_t n = xShape.GetDim(0), c = xShape.GetDim(1), h = xShape.GetDim(2), w = xShape.GetDim(3);
    uint32_t oc = wShape.GetDim(0), kh = wShape.GetDim(2), kw = wShape.GetDim(3);
    if (wShape.GetDim(1) != c || stride == 0 || h + 2 * pad < kh || w + 2 * pad < kw) {
        return ge::GRAPH_FAILED;
    }
    uint32_t oh = (h + 2 * pad - kh) / stride + 1;
    uint32_t ow = (w + 2 * pad - kw) / stride + 1;
    uint32_t owA = (ow + 7) / 8 * 8;
    uint32_t iwA = (w + 2 * pad + 7) / 8 * 8;

    // accumulator budget: ocBlock rows of owA floats, keep it under ~64 KB
    uint32_t ocBlock = 64;
    while (ocBlock > 1 && ocBlock * owA * 4 > 64 * 1024) ocBlock /= 2;
    if (ocBlock > oc) ocBlock = oc;
    uint32_t ocBlocks = (oc + ocBlock - 1) / ocBlock;

    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t rows = n * ocBlocks * oh;
    uint32_t used = rows < cores ? rows : cores;

    Conv2dAffineActTiling td;
    td.set_batch(n); td.set_inC(c); td.set_inH(h); td.set_inW(w); td.set_inWAlign(iwA);
    td.set_outC(oc); td.set_outH(oh); td.set_outW(ow); td.set_outWAlign(owA);
    td.set_kH(kh); td.set_kW(kw); td.set_stride(stride); td.set_pad(pad);
    td.set_ocBlock(ocBlock); td.set_ocBlocks(ocBlocks);
    td.set_rowsTotal(rows); td.set_rowsPerCore((rows + used - 1) / used);
    td.set_hasResidual(ctx->GetOptionalInputShape(4) != nullptr ? 1 : 0);
    td.set_applyRelu(relu ? 1 : 0);

    ctx->SetBlockDim(used);
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());
    ctx->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
