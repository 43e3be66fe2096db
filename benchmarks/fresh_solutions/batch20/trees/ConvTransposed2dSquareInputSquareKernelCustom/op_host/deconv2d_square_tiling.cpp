#include "deconv2d_square_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t OC_CAP = 16;
constexpr uint32_t TARGET_UNITS_PER_CORE = 4;

uint32_t RoundUp16(uint32_t v) { return (v + 15U) & ~15U; }
}

ge::graphStatus Deconv2dSquareTilingFunc(gert::TilingContext *ctx)
{
    auto xShape = ctx->GetInputShape(0)->GetStorageShape();
    auto wShape = ctx->GetInputShape(1)->GetStorageShape();
    auto attrs = ctx->GetAttrs();
    uint32_t stride = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    uint32_t pad = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(1));
    uint32_t outPad = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(2));
    uint32_t groups = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(3));
    if (stride == 0 || groups == 0 || wShape.GetDim(2) != wShape.GetDim(3)) {
        return ge::GRAPH_FAILED;
    }

    Deconv2dSquareTiling td;
    uint32_t n = xShape.GetDim(0), cin = xShape.GetDim(1), hin = xShape.GetDim(2), win = xShape.GetDim(3);
    uint32_t coutG = wShape.GetDim(1), k = wShape.GetDim(2);
    uint32_t hout = (hin - 1) * stride - 2 * pad + k + outPad;
    uint32_t wout = (win - 1) * stride - 2 * pad + k + outPad;

    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint32_t aiv = plat.GetCoreNumAiv();
    uint64_t ubSize = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t dsz = ctx->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;

    // per-core UB: input row (x2, + one zero slot), fp32 row, K gather tables and K gathered rows,
    // output staging (x2) ; per output channel: fp32 accumulator row + its weights for the group
    uint32_t woutA = RoundUp16(wout), winA = RoundUp16(win + 1);
    uint32_t cinG = cin / groups;
    uint64_t fixedPart = 2ULL * winA * dsz + winA * 4ULL + 2ULL * k * woutA * 4 + 2ULL * woutA * dsz + 4096;
    uint64_t perOc = woutA * 4ULL + 1ULL * cinG * k * k * (4 + dsz);
    if (fixedPart + perOc > ubSize) {
        return ge::GRAPH_FAILED;
    }
    uint32_t ocPer = static_cast<uint32_t>((ubSize - fixedPart) / perOc);
    ocPer = ocPer > OC_CAP ? OC_CAP : ocPer;
    ocPer = ocPer > coutG ? coutG : ocPer;
    uint32_t ocUnits = (coutG + ocPer - 1) / ocPer;

    // split output rows into strips until there is enough parallel work
    uint32_t planesUnits = n * groups * ocUnits;
    uint32_t strips = 1;
    while (planesUnits * strips < aiv * TARGET_UNITS_PER_CORE && strips < hout) {
        strips *= 2;
    }
    if (strips > hout) {
        strips = hout;
    }
    uint32_t stripRows = (hout + strips - 1) / strips;
    strips = (hout + stripRows - 1) / stripRows;
    uint32_t total = planesUnits * strips;

    td.set_n(n);
    td.set_cin(cin);
    td.set_cout(coutG * groups);
    td.set_hin(hin);
    td.set_win(win);
    td.set_hout(hout);
    td.set_wout(wout);
    td.set_k(k);
    td.set_stride(stride);
    td.set_pad(pad);
    td.set_groups(groups);
    td.set_withBias(ctx->GetOptionalInputShape(2) == nullptr ? 0 : 1);
    td.set_ocPerUnit(ocPer);
    td.set_ocUnitsPerGroup(ocUnits);
    td.set_stripRows(stripRows);
    td.set_stripCount(strips);
    td.set_totalUnits(total);

    ctx->SetBlockDim(total < aiv ? total : aiv);
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());
    ctx->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
