#include "volumetric_conv_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t W_BLOCK_MAX = 256;
constexpr uint64_t UB_MARGIN = 16 * 1024;

inline uint32_t RoundUp(uint64_t v, uint64_t a) { return static_cast<uint32_t>((v + a - 1) / a * a); }
}

ge::graphStatus VolumetricConvTilingFunc(gert::TilingContext *context)
{
    auto xs = context->GetInputShape(0)->GetStorageShape();
    auto fs = context->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 5 || fs.GetDimNum() != 5 || fs.GetDim(1) != xs.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    int64_t s = *attrs->GetAttrPointer<int64_t>(0);
    int64_t p = *attrs->GetAttrPointer<int64_t>(1);
    int64_t dl = *attrs->GetAttrPointer<int64_t>(2);
    if (s < 1 || dl < 1 || p < 0 || p > 8) {
        return ge::GRAPH_FAILED;
    }
    int64_t k = fs.GetDim(2);
    int64_t span = dl * (k - 1) + 1;
    int64_t dOut = (xs.GetDim(2) + 2 * p - span) / s + 1;
    int64_t hOut = (xs.GetDim(3) + 2 * p - span) / s + 1;
    int64_t wOut = (xs.GetDim(4) + 2 * p - span) / s + 1;
    if (dOut <= 0 || hOut <= 0 || wOut <= 0) {
        return ge::GRAPH_FAILED;
    }

    bool half = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16;
    uint32_t tsz = half ? 2 : 4;
    uint32_t ci = xs.GetDim(1);
    uint32_t co = fs.GetDim(0);
    uint32_t taps = ci * static_cast<uint32_t>(k * k * k);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);

    uint32_t wBlock = wOut < W_BLOCK_MAX ? static_cast<uint32_t>(wOut) : W_BLOCK_MAX;
    uint32_t dense = RoundUp((wBlock - 1) * s + 1 + 16, 16);
    // fixed cost: double-buffered input row + float copy + gather scratch + offsets
    uint64_t fixedBytes = 2ULL * dense * tsz + dense * 4ULL + 2ULL * RoundUp(wBlock, 16) * 4 +
                        2ULL * RoundUp(wBlock, 16) * tsz + UB_MARGIN;
    // per output channel: its filter taps + a stride-1 accumulator line
    uint64_t perCo = RoundUp(taps, 16) * static_cast<uint64_t>(tsz) + static_cast<uint64_t>(dense) * 4ULL;
    uint64_t coFit = ub > fixedBytes ? (ub - fixedBytes) / perCo : 1;
    uint32_t coBlock = static_cast<uint32_t>(coFit < co ? coFit : co);
    if (coBlock == 0) {
        return ge::GRAPH_FAILED;
    }

    uint32_t totalRows = xs.GetDim(0) * static_cast<uint32_t>(dOut * hOut);
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t perCore = (totalRows + cores - 1) / cores;
    uint32_t used = (totalRows + perCore - 1) / perCore;

    VolumetricConvTilingData td;
    td.set_n(xs.GetDim(0));
    td.set_ci(ci);
    td.set_co(co);
    td.set_d(xs.GetDim(2));
    td.set_h(xs.GetDim(3));
    td.set_w(xs.GetDim(4));
    td.set_dOut(dOut);
    td.set_hOut(hOut);
    td.set_wOut(wOut);
    td.set_k(k);
    td.set_stride(s);
    td.set_pad(p);
    td.set_dilation(dl);
    td.set_coBlock(coBlock);
    td.set_wBlock(wBlock);
    td.set_rowsPerCore(perCore);
    td.set_totalRows(totalRows);

    context->SetBlockDim(used);
    context->SetTilingKey(half ? 1 : 0);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}
