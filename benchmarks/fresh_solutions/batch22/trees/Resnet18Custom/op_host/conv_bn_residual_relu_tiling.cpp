#include "conv_bn_residual_relu_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t GUARD = 8;          // zero guard (floats) on both sides of a staged input row
constexpr uint32_t COL_BLOCK = 512;    // GEMM N-block per work unit
}

ge::graphStatus ConvBnResidualReluTiling(gert::TilingContext *ctx)
{
    auto xs = ctx->GetInputShape(0)->GetStorageShape();
    auto ws = ctx->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 4 || ws.GetDimNum() != 4 || ws.GetDim(2) != ws.GetDim(3)) {
        return ge::GRAPH_FAILED;
    }
    const gert::RuntimeAttrs *attrs = ctx->GetAttrs();
    uint32_t stride = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    uint32_t pad = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(1));
    float eps = *attrs->GetAttrPointer<float>(2);
    bool relu = *attrs->GetAttrPointer<bool>(3);

    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t cout = ws.GetDim(0), k = ws.GetDim(2);
    // the guard band must cover the padding on either side of a row
    if (stride == 0 || pad > GUARD || k > pad + GUARD + 1 || ws.GetDim(1) != cin) {
        return ge::GRAPH_FAILED;
    }
    uint32_t oh = (h + 2 * pad - k) / stride + 1;
    uint32_t ow = (w + 2 * pad - k) / stride + 1;
    uint32_t cols = oh * ow;
    uint32_t colBlock = cols < COL_BLOCK ? (cols + 15) / 16 * 16 : COL_BLOCK;
    uint32_t colBlocks = (cols + colBlock - 1) / colBlock;
    uint32_t kdim = cin * k * k;

    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint32_t aic = plat.GetCoreNumAic();
    uint32_t aiv = plat.GetCoreNumAiv();

    ConvBnResidualReluTilingData td;
    td.set_n(n);
    td.set_cin(cin);
    td.set_h(h);
    td.set_w(w);
    td.set_cout(cout);
    td.set_k(k);
    td.set_stride(stride);
    td.set_pad(pad);
    td.set_oh(oh);
    td.set_ow(ow);
    td.set_owAlign((ow + 7) / 8 * 8);
    td.set_rowBufLen((w + 2 * GUARD + 7) / 8 * 8);
    td.set_colCols(cols);
    td.set_colBlock(colBlock);
    td.set_colBlocks(colBlocks);
    td.set_workers(aiv);
    td.set_hasResidual(ctx->GetOptionalInputShape(6) != nullptr ? 1 : 0);
    td.set_withRelu(relu ? 1 : 0);
    td.set_eps(eps);

    matmul_tiling::MatmulApiTiling mt(plat);
    mt.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetShape(cout, colBlock, kdim);
    mt.SetOrgShape(cout, cols, kdim);
    mt.SetBias(false);
    mt.SetBufferSpace(-1, -1, -1);
    if (mt.GetTiling(td.gemm) == -1) {
        return ge::GRAPH_FAILED;
    }

    ctx->SetBlockDim(aic);
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());
    // im2col matrices of all samples + folded BN scale/shift
    size_t *wsz = ctx->GetWorkspaceSizes(1);
    wsz[0] = plat.GetLibApiWorkSpaceSize() +
             (static_cast<uint64_t>(n) * kdim * cols + 2 * ((cout + 7) / 8 * 8)) * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
