#include "conv_gated_group_norm_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

ge::graphStatus ConvGatedGroupNormTilingFunc(gert::TilingContext *ctx)
{
    const gert::Shape &xs = ctx->GetInputShape(0)->GetStorageShape();   // [N, Cin, H, W]
    const gert::Shape &ws = ctx->GetInputShape(1)->GetStorageShape();   // [Cout, Cin, KH, KW]
    if (xs.GetDimNum() != 4 || ws.GetDimNum() != 4 || xs.GetDim(1) != ws.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    const auto *attrs = ctx->GetAttrs();
    const int64_t groups = *attrs->GetAttrPointer<int64_t>(0);
    const float eps = *attrs->GetAttrPointer<float>(1);

    ConvGatedGroupNormTiling t;
    const uint32_t n = xs.GetDim(0), cin = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    const uint32_t cout = ws.GetDim(0), kh = ws.GetDim(2), kw = ws.GetDim(3);
    if (groups <= 0 || cout % groups != 0 || h < kh || w < kw) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t oh = h - kh + 1, ow = w - kw + 1;
    const uint32_t owPad = (ow + 7) / 8 * 8;

    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    // conv tile: 2 input windows + acc + 2 column accumulators + weights
    uint64_t budget = ub - 16 * 1024 - 2ULL * owPad * sizeof(float) - static_cast<uint64_t>(cin) * kh * kw * sizeof(float) * 2;
    uint32_t rows = static_cast<uint32_t>(budget / (3ULL * owPad * sizeof(float)));
    rows = std::min<uint32_t>(rows, oh);
    rows = std::min<uint32_t>(rows, 64);
    if (rows == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t normChunk = static_cast<uint32_t>(std::min<uint64_t>((ub - 16 * 1024) / (4 * sizeof(float)), 8192));
    normChunk = normChunk / 8 * 8;

    t.set_batch(n);
    t.set_cin(cin);
    t.set_inH(h);
    t.set_inW(w);
    t.set_cout(cout);
    t.set_kh(kh);
    t.set_kw(kw);
    t.set_outH(oh);
    t.set_outW(ow);
    t.set_outWPad(owPad);
    t.set_groups(static_cast<uint32_t>(groups));
    t.set_chPerGroup(cout / static_cast<uint32_t>(groups));
    t.set_rowsPerTile(rows);
    t.set_normChunk(normChunk);
    t.set_taskNum(n * static_cast<uint32_t>(groups));
    t.set_eps(eps);

    uint32_t blocks = std::min<uint32_t>(plat.GetCoreNumAiv(), t.get_taskNum());
    ctx->SetBlockDim(std::max<uint32_t>(blocks, 1));
    t.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(t.GetDataSize());
    *ctx->GetWorkspaceSizes(1) = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
