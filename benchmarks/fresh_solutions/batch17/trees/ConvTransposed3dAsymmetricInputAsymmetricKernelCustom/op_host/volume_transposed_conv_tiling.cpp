#include "volume_transposed_conv_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
inline uint32_t AlignUp(uint32_t a, uint32_t b) { return CeilDiv(a, b) * b; }

// reads a 3-element list attribute, falling back to `dflt`
void ReadTriple(const gert::RuntimeAttrs *attrs, size_t idx, int64_t dflt, int64_t out[3])
{
    out[0] = out[1] = out[2] = dflt;
    if (attrs == nullptr) {
        return;
    }
    const gert::ContinuousVector *v = attrs->GetAttrPointer<gert::ContinuousVector>(idx);
    if (v == nullptr || v->GetSize() != 3) {
        return;
    }
    const int64_t *d = static_cast<const int64_t *>(v->GetData());
    for (int i = 0; i < 3; ++i) {
        out[i] = d[i];
    }
}
}  // namespace

ge::graphStatus VolumeTransposedConvTilingFunc(gert::TilingContext *context)
{
    VolumeTransposedConvTiling tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    const auto &xs = context->GetInputShape(0)->GetStorageShape();   // (N, Ci, D, H, W)
    const auto &ws = context->GetInputShape(1)->GetStorageShape();   // (Ci, Co/g, kD, kH, kW)
    if (xs.GetDimNum() != 5 || ws.GetDimNum() != 5) {
        return ge::GRAPH_FAILED;
    }
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    int64_t stride[3], pad[3], outPad[3], dil[3];
    ReadTriple(attrs, 0, 1, stride);
    ReadTriple(attrs, 1, 0, pad);
    ReadTriple(attrs, 2, 0, outPad);
    ReadTriple(attrs, 3, 1, dil);
    int64_t groups = 1;
    if (attrs != nullptr && attrs->GetAttrPointer<int64_t>(4) != nullptr) {
        groups = *attrs->GetAttrPointer<int64_t>(4);
    }

    uint32_t n = xs.GetDim(0), ci = xs.GetDim(1);
    uint32_t in[3] = {static_cast<uint32_t>(xs.GetDim(2)), static_cast<uint32_t>(xs.GetDim(3)),
                      static_cast<uint32_t>(xs.GetDim(4))};
    uint32_t k[3] = {static_cast<uint32_t>(ws.GetDim(2)), static_cast<uint32_t>(ws.GetDim(3)),
                     static_cast<uint32_t>(ws.GetDim(4))};
    uint32_t co = static_cast<uint32_t>(ws.GetDim(1) * groups);
    if (groups <= 0 || ci % groups != 0 || static_cast<uint32_t>(ws.GetDim(0)) != ci) {
        return ge::GRAPH_FAILED;
    }
    uint32_t out[3];
    for (int a = 0; a < 3; ++a) {
        int64_t o = (static_cast<int64_t>(in[a]) - 1) * stride[a] - 2 * pad[a] + dil[a] * (k[a] - 1) + outPad[a] + 1;
        if (o <= 0) {
            return ge::GRAPH_FAILED;
        }
        out[a] = static_cast<uint32_t>(o);
    }

    uint32_t woAl = AlignUp(out[2], 16);
    uint32_t wiAl = AlignUp(in[2] + 1, 16);    // +1: a zero element used by the gather tables
    uint32_t coPerGroup = co / groups;

    // UB: accumulator (coTile rows) + staged fp32 rows + kW gather tables + weights of one ci
    uint64_t fixedBytes = 2ULL * wiAl * 4       // raw row (double buffer, worst case fp32)
                        + wiAl * 4               // fp32 row with zero slot
                        + woAl * 4               // gathered row
                        + static_cast<uint64_t>(k[2]) * woAl * 4                   // gather offsets
                        + AlignUp(coPerGroup * k[0] * k[1] * k[2], 8) * 4 * 2      // weights (dbl)
                        + 4096;
    uint64_t perCo = static_cast<uint64_t>(woAl) * (4 + 4);   // fp32 accumulator + output cast row
    uint32_t coTile = co;
    if (fixedBytes + perCo * coTile > ubSize) {
        coTile = static_cast<uint32_t>((ubSize - fixedBytes) / perCo);
        if (coTile == 0) {
            return ge::GRAPH_FAILED;
        }
    }
    // a channel block never straddles two groups
    if (coTile < coPerGroup) {
        while (coPerGroup % coTile != 0) {
            --coTile;
        }
    } else {
        coTile = (coTile / coPerGroup) * coPerGroup;
        while (co % coTile != 0) {
            coTile -= coPerGroup;
        }
    }
    uint32_t coBlocks = co / coTile;
    uint32_t units = n * out[0] * out[1] * coBlocks;
    uint32_t perCore = CeilDiv(units, coreNum);
    uint32_t used = CeilDiv(units, perCore);

    tiling.set_batch(n);
    tiling.set_cin(ci);
    tiling.set_din(in[0]);
    tiling.set_hin(in[1]);
    tiling.set_win(in[2]);
    tiling.set_cout(co);
    tiling.set_dout(out[0]);
    tiling.set_hout(out[1]);
    tiling.set_wout(out[2]);
    tiling.set_kd(k[0]);
    tiling.set_kh(k[1]);
    tiling.set_kw(k[2]);
    tiling.set_sd(stride[0]);
    tiling.set_sh(stride[1]);
    tiling.set_sw(stride[2]);
    tiling.set_pd(pad[0]);
    tiling.set_ph(pad[1]);
    tiling.set_pw(pad[2]);
    tiling.set_dd(dil[0]);
    tiling.set_dh(dil[1]);
    tiling.set_dw(dil[2]);
    tiling.set_groups(static_cast<uint32_t>(groups));
    tiling.set_hasBias(context->GetOptionalInputShape(2) != nullptr ? 1 : 0);
    tiling.set_coTile(coTile);
    tiling.set_coBlocks(coBlocks);
    tiling.set_woAligned(woAl);
    tiling.set_wiAligned(wiAl);
    tiling.set_totalUnits(units);
    tiling.set_unitsPerCore(perCore);

    context->SetBlockDim(used);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *wsz = context->GetWorkspaceSizes(1);
    wsz[0] = platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
