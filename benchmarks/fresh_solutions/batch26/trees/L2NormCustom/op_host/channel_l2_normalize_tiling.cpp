#include "channel_l2_normalize_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// key 1: the reduced axis is the innermost one -> row-wise reduction
// key 2: strided reduction, inner slices are accumulated element-wise
constexpr uint64_t KEY_CONTIGUOUS = 1;
constexpr uint64_t KEY_STRIDED = 2;

ge::graphStatus ChannelL2NormalizeTilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape &shape = context->GetInputShape(0)->GetStorageShape();
    const int64_t rank = static_cast<int64_t>(shape.GetDimNum());
    const auto *attrs = context->GetAttrs();
    int64_t axis = *attrs->GetAttrPointer<int64_t>(0);
    const float eps = *attrs->GetAttrPointer<float>(1);
    if (axis < 0) {
        axis += rank;
    }
    if (axis < 0 || axis >= rank) {
        return ge::GRAPH_FAILED;
    }
    uint64_t outer = 1, inner = 1;
    for (int64_t i = 0; i < axis; ++i) outer *= shape.GetDim(i);
    for (int64_t i = axis + 1; i < rank; ++i) inner *= shape.GetDim(i);
    const uint32_t axisLen = static_cast<uint32_t>(shape.GetDim(axis));

    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    // compute is always float: in(x2) + out(x2) + fp32 work + fp32 acc  ~ 6 float slices
    uint32_t chunk = static_cast<uint32_t>((ub - 16 * 1024) / (6 * sizeof(float))) / 64 * 64;

    uint32_t cores = plat.GetCoreNumAiv();
    cores = cores == 0 ? 1 : cores;

    ChannelL2NormalizeTilingData td;
    uint64_t units;
    if (inner == 1) {
        context->SetTilingKey(KEY_CONTIGUOUS);
        units = outer;
        if (chunk > axisLen) chunk = (axisLen + 63) / 64 * 64;
        td.set_chunksPerSlice(1);
    } else {
        context->SetTilingKey(KEY_STRIDED);
        if (chunk > inner) chunk = static_cast<uint32_t>((inner + 63) / 64 * 64);
        uint32_t cps = static_cast<uint32_t>((inner + chunk - 1) / chunk);
        td.set_chunksPerSlice(cps);
        units = outer * cps;
    }
    uint32_t perCore = static_cast<uint32_t>((units + cores - 1) / cores);
    uint32_t used = static_cast<uint32_t>((units + perCore - 1) / perCore);

    td.set_outer(static_cast<uint32_t>(outer));
    td.set_axisLen(axisLen);
    td.set_inner(static_cast<uint32_t>(inner));
    td.set_chunk(chunk);
    td.set_unitsPerCore(perCore);
    td.set_totalUnits(static_cast<uint32_t>(units));
    td.set_epsilon(eps);

    context->SetBlockDim(used);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}
