#include "conv_gn_act_residual_lse_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus ConvGnActResidualLseTilingFunc(gert::TilingContext *context)
{
    auto xShape = context->GetInputShape(0)->GetStorageShape();
    auto wShape = context->GetInputShape(1)->GetStorageShape();
    const auto *attrs = context->GetAttrs();
    const int64_t *groupsPtr = attrs->GetAttrPointer<int64_t>(0);
    const float *epsPtr = attrs->GetAttrPointer<float>(1);

    ConvGnActResidualLseTiling tiling;
    uint32_t batch = xShape.GetDim(0), cin = xShape.GetDim(1), h = xShape.GetDim(2), w = xShape.GetDim(3);
    uint32_t cout = wShape.GetDim(0), kh = wShape.GetDim(2), kw = wShape.GetDim(3);
    uint32_t groups = groupsPtr ? static_cast<uint32_t>(*groupsPtr) : 1;
    if (wShape.GetDim(1) != cin || h < kh || w < kw || groups == 0 || cout % groups != 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t oh = h - kh + 1, ow = w - kw + 1;
    uint32_t owPad = (ow + 7) / 8 * 8;

    auto ascendc = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendc.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const uint64_t wBytes = ((uint64_t)cin * kh * kw + 7) / 8 * 8 * 4;
    const uint64_t budget = ubSize - wBytes - 16 * 1024;

    // conv band: 2 slabs (R + kh - 1 rows) + accumulator (R rows)
    uint32_t bandRows = 1;
    while (bandRows < oh && bandRows < 32) {
        uint64_t need = (2ULL * (bandRows + kh) + (bandRows + 1)) * owPad * 4;
        if (need > budget) break;
        ++bandRows;
    }
    // chunk pass: 2 input buffers + max + sum + two temporaries + output
    uint32_t chunk = static_cast<uint32_t>(budget / (7ULL * 4)) / 64 * 64;
    if (chunk > 8192) chunk = 8192;
    uint32_t plane = oh * ow;
    if (chunk > (plane + 63) / 64 * 64) chunk = (plane + 63) / 64 * 64;

    uint32_t coreNum = ascendc.GetCoreNumAiv();
    uint32_t perCore = (batch + coreNum - 1) / coreNum;
    uint32_t used = (batch + perCore - 1) / perCore;

    tiling.set_batch(batch); tiling.set_cin(cin); tiling.set_inH(h); tiling.set_inW(w);
    tiling.set_cout(cout); tiling.set_kH(kh); tiling.set_kW(kw);
    tiling.set_outH(oh); tiling.set_outW(ow); tiling.set_outWPad(owPad);
    tiling.set_bandRows(bandRows); tiling.set_groups(groups); tiling.set_chunk(chunk);
    tiling.set_samplesPerCore(perCore);
    tiling.set_eps(epsPtr ? *epsPtr : 1e-5f);

    context->SetBlockDim(used);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    // per-core scratch holding the raw conv output of the sample in flight
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = ascendc.GetLibApiWorkSpaceSize() + (size_t)used * cout * plane * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}
