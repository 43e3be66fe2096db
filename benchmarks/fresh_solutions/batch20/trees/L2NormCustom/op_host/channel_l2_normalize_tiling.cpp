#include "channel_l2_normalize_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t ROW_MODE_KEY = 1;   // inner == 1, reduce along contiguous rows
constexpr uint32_t SLAB_MODE_KEY = 2;  // inner > 1, reduce across strided rows
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t MAX_TILE = 8192;

inline uint32_t AlignDown(uint32_t v, uint32_t a) { return v / a * a; }
inline uint32_t CeilDiv(uint32_t v, uint32_t a) { return (v + a - 1) / a; }
}  // namespace

ge::graphStatus ChannelL2NormalizeTilingFunc(gert::TilingContext *context)
{
    const gert::StorageShape *xShape = context->GetInputShape(0);
    const gert::Shape &shape = xShape->GetStorageShape();
    size_t rank = shape.GetDimNum();
    if (rank < 2) {
        return ge::GRAPH_FAILED;
    }
    uint32_t outer = static_cast<uint32_t>(shape.GetDim(0));
    uint32_t reduce = static_cast<uint32_t>(shape.GetDim(1));
    uint64_t inner = 1;
    for (size_t d = 2; d < rank; ++d) {
        inner *= static_cast<uint64_t>(shape.GetDim(d));
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = plat.GetCoreNumAiv();
    uint64_t ubBytes = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubBytes);

    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t elemBytes = (dt == ge::DT_FLOAT16) ? 2 : 4;

    // UB budget per element of a tile:
    //   in queue x2 + out queue x2 (elemBytes each) + fp32 work, square and accumulator.
    uint32_t perElem = 4 * elemBytes + 3 * sizeof(float);
    uint32_t tile = static_cast<uint32_t>((ubBytes - 1024) / perElem);
    tile = AlignDown(tile, BLOCK_BYTES / sizeof(uint16_t));  // 16 elements keeps both dtypes aligned
    if (tile > MAX_TILE) {
        tile = MAX_TILE;
    }

    ChannelL2NormalizeTilingData tiling;
    uint32_t units = 0;
    uint32_t slabs = 1;
    if (inner == 1) {
        context->SetTilingKey(ROW_MODE_KEY);
        if (reduce < tile) {
            tile = CeilDiv(reduce, 16) * 16;
        }
        units = outer;
    } else {
        context->SetTilingKey(SLAB_MODE_KEY);
        uint32_t in32 = static_cast<uint32_t>(inner);
        if (in32 < tile) {
            tile = CeilDiv(in32, 16) * 16;
        }
        slabs = CeilDiv(in32, tile);
        units = outer * slabs;
    }

    uint32_t usedCores = units < coreNum ? units : coreNum;
    if (usedCores == 0) {
        usedCores = 1;
    }
    tiling.set_outerSize(outer);
    tiling.set_reduceLen(reduce);
    tiling.set_innerSize(static_cast<uint32_t>(inner));
    tiling.set_tileLen(tile);
    tiling.set_unitsTotal(units);
    tiling.set_innerSlabs(slabs);
    tiling.set_unitsPerCore(units / usedCores);
    tiling.set_unitsRemain(units % usedCores);

    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
