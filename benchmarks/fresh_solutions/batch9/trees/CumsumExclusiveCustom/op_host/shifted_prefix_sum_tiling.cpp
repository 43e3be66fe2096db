#include "shifted_prefix_sum_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t KEY_ROW_SCAN = 1;   // scan axis is the innermost one -> scalar running sum
constexpr uint32_t KEY_SLAB_SCAN = 2;  // scan axis has a contiguous tail -> vector carry
constexpr uint32_t ROW_CHUNK = 8192;   // elements per tile for the row kernel
constexpr uint32_t SLAB_CHUNK = 4096;  // max inner elements per tile for the slab kernel
}

static ge::graphStatus ShiftedPrefixSumTilingFunc(gert::TilingContext *context)
{
    const gert::StorageShape *xShape = context->GetInputShape(0);
    const gert::Shape &shape = xShape->GetStorageShape();
    int64_t rank = static_cast<int64_t>(shape.GetDimNum());
    if (rank == 0) {
        return ge::GRAPH_FAILED;
    }

    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    int64_t axis = *(attrs->GetAttrPointer<int64_t>(0));
    if (axis < 0) {
        axis += rank;
    }
    if (axis < 0 || axis >= rank) {
        return ge::GRAPH_FAILED;
    }

    uint64_t outer = 1;
    uint64_t inner = 1;
    for (int64_t i = 0; i < axis; ++i) {
        outer *= static_cast<uint64_t>(shape.GetDim(i));
    }
    for (int64_t i = axis + 1; i < rank; ++i) {
        inner *= static_cast<uint64_t>(shape.GetDim(i));
    }
    uint64_t scanLen = static_cast<uint64_t>(shape.GetDim(axis));

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    if (coreNum == 0) {
        coreNum = 1;
    }

    ShiftedPrefixSumTilingData tiling;
    uint64_t units = 0;
    if (inner == 1) {
        // every row is an independent scan: spread rows over cores
        context->SetTilingKey(KEY_ROW_SCAN);
        units = outer;
        tiling.set_chunkLen(ROW_CHUNK);
        tiling.set_innerTiles(1);
    } else {
        // a unit is (outer index, inner tile); each unit walks the whole scan axis
        context->SetTilingKey(KEY_SLAB_SCAN);
        uint32_t chunk = inner < SLAB_CHUNK ? static_cast<uint32_t>(inner) : SLAB_CHUNK;
        uint32_t tiles = static_cast<uint32_t>((inner + chunk - 1) / chunk);
        tiling.set_chunkLen(chunk);
        tiling.set_innerTiles(tiles);
        units = outer * tiles;
    }

    uint32_t usedCores = units < coreNum ? static_cast<uint32_t>(units) : coreNum;
    if (usedCores == 0) {
        usedCores = 1;
    }
    tiling.set_outerSize(static_cast<uint32_t>(outer));
    tiling.set_scanLen(static_cast<uint32_t>(scanLen));
    tiling.set_innerSize(static_cast<uint32_t>(inner));
    tiling.set_unitsPerCore(static_cast<uint32_t>(units / usedCores));
    tiling.set_unitsTail(static_cast<uint32_t>(units % usedCores));

    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ops {
// exported for the OpDef in shifted_prefix_sum_def.cpp
ge::graphStatus ShiftedPrefixSumTiling(gert::TilingContext *context)
{
    return optiling::ShiftedPrefixSumTilingFunc(context);
}
}
