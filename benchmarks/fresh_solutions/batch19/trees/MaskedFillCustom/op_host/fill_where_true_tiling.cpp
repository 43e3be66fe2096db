#include <limits>
#include "fill_where_true_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t ELEM_ALIGN = 256;    // keeps Compare/Select repeat-aligned and the uint8 mask 32B aligned
constexpr uint32_t TILE_CAP = 4096;
}

ge::graphStatus FillWhereTrueTilingFunc(gert::TilingContext *context)
{
    const gert::StorageShape *xs = context->GetInputShape(0);
    const gert::StorageShape *ms = context->GetInputShape(1);
    if (xs == nullptr || ms == nullptr) {
        return ge::GRAPH_FAILED;
    }
    const uint64_t count = xs->GetStorageShape().GetShapeSize();
    if (ms->GetStorageShape().GetShapeSize() != count) {
        // this kernel expects the mask already expanded to x's shape
        return ge::GRAPH_FAILED;
    }

    auto ascend = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascend.GetCoreNumAiv();
    coreNum = coreNum == 0 ? 1 : coreNum;

    uint64_t perCore = (count + coreNum - 1) / coreNum;
    perCore = (perCore + ELEM_ALIGN - 1) / ELEM_ALIGN * ELEM_ALIGN;
    if (perCore == 0) {
        perCore = ELEM_ALIGN;
    }
    uint32_t blockDim = static_cast<uint32_t>((count + perCore - 1) / perCore);
    blockDim = blockDim == 0 ? 1 : blockDim;

    uint32_t tile = TILE_CAP;
    if (perCore < tile) {
        tile = static_cast<uint32_t>(perCore);
    }

    float value = -std::numeric_limits<float>::infinity();
    if (auto attrs = context->GetAttrs(); attrs != nullptr) {
        if (const float *v = attrs->GetAttrPointer<float>(0); v != nullptr) {
            value = *v;
        }
    }

    FillWhereTrueTilingData data;
    data.set_elemCount(count);
    data.set_blockElems(perCore);
    data.set_tileElems(tile);
    data.set_fillValue(value);

    const ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 2 : 1);
    context->SetBlockDim(blockDim);
    data.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(data.GetDataSize());
    *context->GetWorkspaceSizes(1) = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
