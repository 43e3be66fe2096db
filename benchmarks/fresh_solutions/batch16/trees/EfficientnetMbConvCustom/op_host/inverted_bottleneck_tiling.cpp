// Host side tiling for InvertedBottleneck.
//
// Stage plan (one mixed kernel, stages separated by SyncAll):
//   1. expand GEMM    e[n]  = We[hidden, cin] @ x[n][cin, h*w]            -> workspace A
//   2. depthwise      d     = relu6(bn2(dwconv(relu6(bn1(e)))))           -> workspace B
//   3. project GEMM   y[n]  = Wp[cout, hidden] @ d[n][hidden, ho*wo]      -> y
//   4. epilogue       y     = bn3(y) (+ x)                                   in place
#include "inverted_bottleneck_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
inline uint32_t Up(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

bool MakeGemmTiling(platform_ascendc::PlatformAscendC &plat, TCubeTiling &out,
                    uint32_t m, uint32_t nBlock, uint32_t nFull, uint32_t k)
{
    matmul_tiling::MatmulApiTiling t(plat);
    t.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    t.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    t.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    t.SetShape(m, nBlock, k);
    t.SetOrgShape(m, nFull, k);
    t.SetBias(false);
    t.SetBufferSpace(-1, -1, -1);
    return t.GetTiling(out) != -1;
}
}  // namespace

ge::graphStatus InvertedBottleneckTiling(gert::TilingContext *ctx)
{
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    auto xs = ctx->GetInputShape(0)->GetStorageShape();    // N, Cin, H, W
    auto ews = ctx->GetInputShape(1)->GetStorageShape();   // hidden, Cin, 1, 1
    auto dws = ctx->GetInputShape(4)->GetStorageShape();   // hidden, 1, k, k
    auto pws = ctx->GetInputShape(7)->GetStorageShape();   // Cout, hidden, 1, 1
    if (xs.GetDimNum() != 4 || dws.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    uint32_t stride = static_cast<uint32_t>(*ctx->GetAttrs()->GetAttrPointer<int64_t>(0));
    if (stride == 0) {
        return ge::GRAPH_FAILED;
    }

    InvertedBottleneckTilingData td;
    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t hidden = ews.GetDim(0);
    uint32_t k = dws.GetDim(2);
    uint32_t cout = pws.GetDim(0);
    uint32_t pad = (k - 1) / 2;
    uint32_t ho = (h + 2 * pad - k) / stride + 1;
    uint32_t wo = (w + 2 * pad - k) / stride + 1;

    td.set_batch(n);
    td.set_cin(cin);
    td.set_hidden(hidden);
    td.set_cout(cout);
    td.set_h(h);
    td.set_w(w);
    td.set_ho(ho);
    td.set_wo(wo);
    td.set_ksize(k);
    td.set_stride(stride);
    td.set_pad(pad);
    td.set_residual((stride == 1 && cin == cout) ? 1 : 0);

    constexpr uint32_t BLK = 8;   // float elements per 32 B
    uint32_t rowOff = Up(pad, BLK);
    uint32_t reach = rowOff - pad + (wo - 1) * stride + k;
    uint32_t bufLen = Up(reach > rowOff + w ? reach : rowOff + w, BLK);
    td.set_rowOffset(rowOff);
    td.set_rowBufLen(Up(bufLen, BLK));
    td.set_woAlign(Up(wo, BLK));

    uint32_t hw = h * w;
    uint32_t howo = ho * wo;
    uint32_t eCols = hw < 2048 ? Up(hw, 16) : 2048;
    uint32_t pCols = howo < 2048 ? Up(howo, 16) : 2048;
    td.set_expandCols(eCols);
    td.set_projectCols(pCols);
    td.set_epiChunk(4096);

    if (!MakeGemmTiling(plat, td.expandMm, hidden, eCols, hw, cin) ||
        !MakeGemmTiling(plat, td.projectMm, cout, pCols, howo, hidden)) {
        return ge::GRAPH_FAILED;
    }

    uint64_t expandBytes = static_cast<uint64_t>(n) * hidden * hw * sizeof(float);
    uint64_t dwBytes = static_cast<uint64_t>(n) * hidden * howo * sizeof(float);
    td.set_dwWsOffset(((expandBytes + 511) / 512) * 512);

    ctx->SetBlockDim(plat.GetCoreNumAic());
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *ws = ctx->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize() + td.get_dwWsOffset() + dwBytes;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
