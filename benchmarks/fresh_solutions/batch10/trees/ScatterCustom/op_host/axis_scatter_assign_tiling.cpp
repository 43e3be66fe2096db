#include "axis_scatter_assign_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint64_t ALIGN_BYTES = 32;
constexpr uint64_t UB_RESERVED = 8 * 1024;

inline uint64_t AlignDown(uint64_t v, uint64_t a) { return v / a * a; }
}  // namespace

ge::graphStatus AxisScatterAssignTilingFunc(gert::TilingContext* context)
{
    const auto& xs = context->GetInputShape(0)->GetStorageShape();
    const auto& is = context->GetInputShape(1)->GetStorageShape();
    const size_t rank = xs.GetDimNum();
    if (rank == 0 || is.GetDimNum() != rank) {
        return ge::GRAPH_FAILED;
    }
    int64_t dim = *context->GetAttrs()->GetAttrPointer<int64_t>(0);
    if (dim < 0) {
        dim += static_cast<int64_t>(rank);
    }
    if (dim < 0 || dim >= static_cast<int64_t>(rank)) {
        return ge::GRAPH_FAILED;
    }

    // Only the scatter axis may differ between x and index (updates has index's shape).
    uint64_t outer = 1, inner = 1;
    for (size_t d = 0; d < rank; ++d) {
        if (static_cast<int64_t>(d) == dim) continue;
        if (xs.GetDim(d) != is.GetDim(d)) {
            return ge::GRAPH_FAILED;
        }
        if (static_cast<int64_t>(d) < dim) outer *= xs.GetDim(d);
        else inner *= xs.GetDim(d);
    }
    const uint64_t axisX = xs.GetDim(dim);
    const uint64_t axisI = is.GetDim(dim);

    const uint32_t xBytes = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
    const uint32_t iBytes = ge::GetSizeByDataType(context->GetInputDesc(1)->GetDataType());

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint64_t budget = ubSize - UB_RESERVED;

    const uint64_t slabX = axisX * inner;
    const uint64_t slabI = axisI * inner;
    // half of UB for the y chunk, the other half shared by an index chunk and an update chunk
    uint64_t chunkX = AlignDown(budget / 2 / xBytes, ALIGN_BYTES);
    uint64_t chunkI = AlignDown(budget / 2 / (iBytes + xBytes), ALIGN_BYTES);
    chunkX = chunkX > slabX ? slabX : chunkX;
    chunkI = chunkI > slabI ? slabI : chunkI;

    uint32_t cores = platform.GetCoreNumAiv();
    uint32_t used = static_cast<uint32_t>(outer < cores ? outer : cores);
    used = used == 0 ? 1 : used;

    AxisScatterAssignTilingData t;
    t.set_outer(static_cast<uint32_t>(outer));
    t.set_axisX(static_cast<uint32_t>(axisX));
    t.set_axisI(static_cast<uint32_t>(axisI));
    t.set_inner(static_cast<uint32_t>(inner));
    t.set_slabX(slabX);
    t.set_slabI(slabI);
    t.set_chunkX(static_cast<uint32_t>(chunkX));
    t.set_chunkI(static_cast<uint32_t>(chunkI));
    t.set_slabsPerCore(static_cast<uint32_t>(outer / used));
    t.set_slabsTail(static_cast<uint32_t>(outer % used));

    context->SetBlockDim(used);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
