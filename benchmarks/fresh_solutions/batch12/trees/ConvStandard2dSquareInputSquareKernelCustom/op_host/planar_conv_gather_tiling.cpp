// Host side tiling of PlanarConvGather (2-D convolution, square kernel, vector-unit implementation).
#include "planar_conv_gather_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static inline uint32_t RoundUp(uint32_t x, uint32_t m) { return (x + m - 1) / m * m; }

ge::graphStatus PlanarConvGatherTiling(gert::TilingContext* ctx)
{
    auto xs = ctx->GetInputShape(0)->GetStorageShape();
    auto ws = ctx->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 4 || ws.GetDimNum() != 4 || ws.GetDim(1) != xs.GetDim(1) || ws.GetDim(2) != ws.GetDim(3)) {
        return ge::GRAPH_FAILED;
    }
    auto attrs = ctx->GetAttrs();
    const uint32_t stride = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    const uint32_t pad = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(1));
    const uint32_t dil = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(2));
    if (stride == 0 || dil == 0) {
        return ge::GRAPH_FAILED;
    }

    const uint32_t n = xs.GetDim(0), cin = xs.GetDim(1), hin = xs.GetDim(2), win = xs.GetDim(3);
    const uint32_t cout = ws.GetDim(0), k = ws.GetDim(2);
    const int64_t hout = (static_cast<int64_t>(hin) + 2 * pad - dil * (k - 1) - 1) / stride + 1;
    const int64_t wout = (static_cast<int64_t>(win) + 2 * pad - dil * (k - 1) - 1) / stride + 1;
    if (hout <= 0 || wout <= 0) {
        return ge::GRAPH_FAILED;
    }

    const bool isHalf = ctx->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16;
    const uint32_t rowStride = RoundUp(win + 1, 16);        // +1: a zero cell used for padding taps
    const uint32_t woutAlign = RoundUp(static_cast<uint32_t>(wout), 16);
    const uint32_t taps = cin * k * k;

    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t cores = plat.GetCoreNumAiv();

    // Line-independent UB: K staged rows (raw x2 + fp32), K gather offset vectors, one tap vector.
    uint64_t fixed = static_cast<uint64_t>(k) * rowStride * (isHalf ? 2 * 2 : 4 * 2) +
                     static_cast<uint64_t>(k) * rowStride * 4 + static_cast<uint64_t>(k) * woutAlign * 4 +
                     woutAlign * 4 + 16 * 1024;
    // Per output channel: resident weights (fp32 + raw) + accumulator + output staging x2.
    uint64_t perCo = static_cast<uint64_t>(RoundUp(taps, 16)) * (4 + (isHalf ? 2 : 0)) + woutAlign * 4 * 3 + 64;
    if (ub <= fixed + perCo) {
        return ge::GRAPH_FAILED;
    }
    uint32_t coBlock = static_cast<uint32_t>((ub - fixed) / perCo);
    coBlock = coBlock > cout ? cout : coBlock;
    // Balance the blocks so the last one is not tiny.
    const uint32_t nBlk = (cout + coBlock - 1) / coBlock;
    coBlock = (cout + nBlk - 1) / nBlk;

    const uint32_t lines = n * static_cast<uint32_t>(hout);
    cores = lines < cores ? lines : cores;
    cores = cores == 0 ? 1 : cores;

    PlanarConvGatherTilingData td;
    td.set_n(n);
    td.set_cin(cin);
    td.set_hin(hin);
    td.set_win(win);
    td.set_cout(cout);
    td.set_hout(static_cast<uint32_t>(hout));
    td.set_wout(static_cast<uint32_t>(wout));
    td.set_k(k);
    td.set_stride(stride);
    td.set_pad(pad);
    td.set_dilation(dil);
    td.set_withBias(ctx->GetOptionalInputShape(2) != nullptr ? 1U : 0U);
    td.set_rowStride(rowStride);
    td.set_woutAlign(woutAlign);
    td.set_coBlock(coBlock);
    td.set_lineBase(lines / cores);
    td.set_lineExtra(lines % cores);

    ctx->SetBlockDim(cores);
    ctx->SetTilingKey(isHalf ? 1 : 0);
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());
    *ctx->GetWorkspaceSizes(1) = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
