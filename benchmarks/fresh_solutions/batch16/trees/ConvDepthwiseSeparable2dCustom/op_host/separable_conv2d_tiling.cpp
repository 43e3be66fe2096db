/*
 * Host tiling for SeparableConv2d.
 * Phase 1 (vector): depthwise conv of every (n, c) plane into a workspace buffer laid out
 *                   as [N, C, outH*outW].
 * Phase 2 (cube)  : per image, y[n] = Wp[outC, C] x dw[n][C, outH*outW]; column blocks of
 *                   colBlock pixels are the units spread over the cores.
 */
#include "separable_conv2d_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static inline uint32_t RoundUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

ge::graphStatus SeparableConv2dTilingFunc(gert::TilingContext *ctx)
{
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    const gert::Shape &xs = ctx->GetInputShape(0)->GetStorageShape();   // N C H W
    const gert::Shape &dws = ctx->GetInputShape(1)->GetStorageShape();  // C 1 kh kw
    const gert::Shape &pws = ctx->GetInputShape(2)->GetStorageShape();  // Cout C 1 1
    if (xs.GetDimNum() != 4 || dws.GetDimNum() != 4 || pws.GetDimNum() < 2) {
        return ge::GRAPH_FAILED;
    }
    const auto *attrs = ctx->GetAttrs();
    uint32_t stride = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    uint32_t pad = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(1));
    uint32_t dil = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(2));
    if (stride == 0 || dil == 0) {
        return ge::GRAPH_FAILED;
    }

    SeparableConv2dTilingData td;
    uint32_t n = xs.GetDim(0), c = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t kh = dws.GetDim(2), kw = dws.GetDim(3);
    uint32_t oc = pws.GetDim(0);
    int64_t oh = (static_cast<int64_t>(h) + 2 * pad - dil * (kh - 1) - 1) / stride + 1;
    int64_t ow = (static_cast<int64_t>(w) + 2 * pad - dil * (kw - 1) - 1) / stride + 1;
    if (oh <= 0 || ow <= 0) {
        return ge::GRAPH_FAILED;
    }

    bool isHalf = ctx->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16;
    uint32_t tsize = isHalf ? 2 : 4;
    uint32_t blk = 32 / tsize;
    uint32_t rowOff = RoundUp(pad == 0 ? 0 : pad, blk);
    // the gathered window reaches index rowOff - pad + (ow-1)*stride + (kw-1)*dil
    uint32_t need = rowOff - pad + (static_cast<uint32_t>(ow) - 1) * stride + (kw - 1) * dil + 1;
    uint32_t bufLen = RoundUp(need > rowOff + w ? need : rowOff + w, blk);

    td.set_batch(n);
    td.set_inC(c);
    td.set_inH(h);
    td.set_inW(w);
    td.set_outC(oc);
    td.set_kH(kh);
    td.set_kW(kw);
    td.set_stride(stride);
    td.set_pad(pad);
    td.set_dilation(dil);
    td.set_outH(static_cast<uint32_t>(oh));
    td.set_outW(static_cast<uint32_t>(ow));
    td.set_rowOffset(rowOff);
    td.set_rowBufLen(bufLen);
    td.set_outWAlign(RoundUp(static_cast<uint32_t>(ow), blk));

    uint32_t pixels = static_cast<uint32_t>(oh * ow);
    uint32_t colBlock = pixels < 1024 ? RoundUp(pixels, 16) : 1024;
    td.set_colBlock(colBlock);
    td.set_colBlockNum((pixels + colBlock - 1) / colBlock);

    matmul_tiling::DataType dt = isHalf ? matmul_tiling::DataType::DT_FLOAT16 : matmul_tiling::DataType::DT_FLOAT;
    matmul_tiling::MatmulApiTiling mt(plat);
    mt.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt, false);
    mt.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt, false);
    mt.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt);
    mt.SetShape(oc, colBlock, c);
    // B (the depthwise result) and C (the output) share the full pixel pitch
    mt.SetOrgShape(oc, pixels, c);
    mt.SetBias(false);
    mt.SetBufferSpace(-1, -1, -1);
    if (mt.GetTiling(td.pwTiling) == -1) {
        return ge::GRAPH_FAILED;
    }

    ctx->SetBlockDim(plat.GetCoreNumAic());
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());

    size_t *ws = ctx->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize() + static_cast<size_t>(n) * c * pixels * tsize;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
