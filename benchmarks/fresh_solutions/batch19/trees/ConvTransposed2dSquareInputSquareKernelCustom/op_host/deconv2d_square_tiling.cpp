#include "deconv2d_square_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus Deconv2dSquareTilingFunc(gert::TilingContext *ctx)
{
    const gert::Shape &xs = ctx->GetInputShape(0)->GetStorageShape();   // [N, Ci, H, W]
    const gert::Shape &ws = ctx->GetInputShape(1)->GetStorageShape();   // [Ci, Co, K, K]
    const auto *attrs = ctx->GetAttrs();
    const int64_t stride = *attrs->GetAttrPointer<int64_t>(0);
    const int64_t pad = *attrs->GetAttrPointer<int64_t>(1);
    const int64_t outPad = *attrs->GetAttrPointer<int64_t>(2);
    if (xs.GetDimNum() != 4 || ws.GetDimNum() != 4 || ws.GetDim(0) != xs.GetDim(1) ||
        ws.GetDim(2) != ws.GetDim(3) || stride < 1 || pad < 0 || outPad < 0 || outPad >= stride) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t N = xs.GetDim(0), Ci = xs.GetDim(1), H = xs.GetDim(2), W = xs.GetDim(3);
    const uint32_t Co = ws.GetDim(1), K = ws.GetDim(2);
    const int64_t oh = (int64_t)(H - 1) * stride - 2 * pad + K + outPad;
    const int64_t ow = (int64_t)(W - 1) * stride - 2 * pad + K + outPad;
    if (oh <= 0 || ow <= 0) {
        return ge::GRAPH_FAILED;
    }
    // left zero fill of a shifted row is done by DataCopyPad's leftPadding (<= one 32B block)
    if ((K - 1 + stride - 1) / stride > 8 + (uint32_t)pad / stride) {
        return ge::GRAPH_FAILED;
    }

    const uint32_t s = static_cast<uint32_t>(stride);
    const uint32_t phaseLen = (static_cast<uint32_t>(ow) + s - 1) / s;
    const uint32_t phasePitch = (phaseLen + 7) / 8 * 8;
    const uint32_t rowPitch = phasePitch * s;

    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    // per co in the group: accumulator row + weights Ci*K*K; shared: 2 shifted rows + output row
    uint64_t fixedBytes = 2ULL * (phasePitch + 8) * 4 + 2ULL * rowPitch * 4 + 8 * 1024;
    uint64_t perCo = (uint64_t)rowPitch * 4 * 2 + (uint64_t)Ci * K * K * 4;
    uint32_t group = static_cast<uint32_t>((ub - fixedBytes) / perCo);
    if (group == 0) {
        return ge::GRAPH_FAILED;
    }
    if (group > Co) group = Co;
    if (group > 32) group = 32;
    const uint32_t groups = (Co + group - 1) / group;

    const uint32_t items = N * static_cast<uint32_t>(oh) * groups;
    const uint32_t cores = plat.GetCoreNumAiv();
    const uint32_t perCore = (items + cores - 1) / cores;

    Deconv2dSquareTilingData td;
    td.set_batch(N); td.set_cin(Ci); td.set_cout(Co); td.set_inH(H); td.set_inW(W); td.set_k(K);
    td.set_stride(s); td.set_pad(static_cast<uint32_t>(pad));
    td.set_outH(static_cast<uint32_t>(oh)); td.set_outW(static_cast<uint32_t>(ow));
    td.set_phaseLen(phaseLen); td.set_phasePitch(phasePitch); td.set_rowPitch(rowPitch);
    td.set_coGroup(group); td.set_coGroups(groups); td.set_itemsPerCore(perCore);
    td.set_hasBias(ctx->GetOptionalInputShape(2) != nullptr ? 1 : 0);

    ctx->SetBlockDim((items + perCore - 1) / perCore);
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());
    ctx->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}
