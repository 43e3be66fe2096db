/*
 * GroupedTransposedConv2d tiling.
 * Task = (n, output-channel tile inside one group, output row). Tiles never straddle groups,
 * so a task only reads the Ci/groups input channels of its group.
 */
#include "grouped_transposed_conv2d_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
bool ReadPair(const gert::RuntimeAttrs *attrs, size_t i, int64_t &a, int64_t &b)
{
    const gert::ContinuousVector *v = attrs->GetAttrPointer<gert::ContinuousVector>(i);
    if (v == nullptr || v->GetSize() == 0) {
        return false;
    }
    const int64_t *d = static_cast<const int64_t *>(v->GetData());
    a = d[0];
    b = v->GetSize() > 1 ? d[1] : d[0];
    return true;
}
uint32_t Align8(int64_t v) { return static_cast<uint32_t>((v + 7) / 8 * 8); }
}  // namespace

ge::graphStatus GroupedTransposedConv2dTilingFunc(gert::TilingContext *context)
{
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &ws = context->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 4 || ws.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    int64_t sH, sW, pH, pW, dH, dW, opH, opW;
    if (!ReadPair(attrs, 0, sH, sW) || !ReadPair(attrs, 1, pH, pW) || !ReadPair(attrs, 2, dH, dW) ||
        !ReadPair(attrs, 3, opH, opW)) {
        return ge::GRAPH_FAILED;
    }
    int64_t groups = *attrs->GetAttrPointer<int64_t>(4);

    int64_t N = xs.GetDim(0), Ci = xs.GetDim(1), Hi = xs.GetDim(2), Wi = xs.GetDim(3);
    int64_t coPerG = ws.GetDim(1), Kh = ws.GetDim(2), Kw = ws.GetDim(3);
    if (groups <= 0 || Ci % groups != 0 || ws.GetDim(0) != Ci || sH <= 0 || sW <= 0 || dH <= 0 || dW <= 0) {
        return ge::GRAPH_FAILED;
    }
    int64_t Co = coPerG * groups;
    int64_t Ho = (Hi - 1) * sH - 2 * pH + dH * (Kh - 1) + opH + 1;
    int64_t Wo = (Wi - 1) * sW - 2 * pW + dW * (Kw - 1) + opW + 1;
    if (Ho <= 0 || Wo <= 0) {
        return ge::GRAPH_FAILED;
    }

    uint32_t WoA = Align8(Wo);
    uint32_t WiA = Align8(Wi);
    // accumulators are double buffered: keep 2 * coTile * WoA * 4 bytes under ~112 KB
    const uint64_t accBytes = 112 * 1024;
    uint32_t coTile = 1;
    for (int64_t t = 1; t <= coPerG; ++t) {
        if (coPerG % t == 0 && 2ULL * t * WoA * sizeof(float) <= accBytes) {
            coTile = static_cast<uint32_t>(t);
        }
    }

    uint32_t taskNum = static_cast<uint32_t>(N * (Co / coTile) * Ho);
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aiv = plat.GetCoreNumAiv();
    aiv = aiv ? aiv : 1;
    uint32_t perCore = (taskNum + aiv - 1) / aiv;
    uint32_t blocks = (taskNum + perCore - 1) / perCore;

    GroupedTransposedConv2dTilingData td;
    td.set_N(N); td.set_Ci(Ci); td.set_Co(Co);
    td.set_Hi(Hi); td.set_Wi(Wi); td.set_Ho(Ho); td.set_Wo(Wo);
    td.set_Kh(Kh); td.set_Kw(Kw);
    td.set_sH(sH); td.set_sW(sW); td.set_pH(pH); td.set_pW(pW); td.set_dH(dH); td.set_dW(dW);
    td.set_groups(groups);
    td.set_ciPerG(Ci / groups);
    td.set_coPerG(coPerG);
    td.set_coTile(coTile);
    td.set_WiA(WiA);
    td.set_WoA(WoA);
    td.set_taskNum(taskNum);
    td.set_taskPerCore(perCore);
    td.set_biasFlag(context->GetOptionalInputShape(2) != nullptr);

    context->SetBlockDim(blocks);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
