/**
 * Host tiling for TripletHingeDistanceLoss.
 * Rows (triplets) are distributed over the vector cores; the feature axis of every row is
 * streamed through UB in tiles of tileLen elements.
 */
#include "triplet_hinge_distance_loss_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t ALIGN_BYTES = 32;
constexpr uint32_t RESERVED_UB = 8 * 1024;
// a, p, n input tiles (double buffered, input dtype) + 4 float work buffers
constexpr uint32_t FLOAT_BUFS = 4;
}

ge::graphStatus TripletHingeDistanceLossTilingFunc(gert::TilingContext *context)
{
    TripletHingeDistanceLossTilingData tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    const gert::StorageShape *aShape = context->GetInputShape(0);
    const auto &shp = aShape->GetStorageShape();
    if (shp.GetDimNum() < 1) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rows = static_cast<uint32_t>(shp.GetDim(0));
    uint32_t featLen = 1;
    for (size_t i = 1; i < shp.GetDimNum(); ++i) {
        featLen *= static_cast<uint32_t>(shp.GetDim(i));
    }
    if (rows == 0 || featLen == 0) {
        return ge::GRAPH_FAILED;
    }

    auto dtype = context->GetInputDesc(0)->GetDataType();
    uint32_t typeSize = (dtype == ge::DT_FLOAT16) ? 2 : 4;

    // bytes needed per element of one tile
    uint32_t bytesPerElem = 3 * 2 * typeSize + FLOAT_BUFS * sizeof(float);
    uint32_t tileLen = static_cast<uint32_t>((ubSize - RESERVED_UB) / bytesPerElem);
    tileLen = tileLen / 64 * 64;             // multiple of one 256B float repeat
    if (tileLen > 8192) {
        tileLen = 8192;
    }
    uint32_t featAligned = (featLen + 63) / 64 * 64;
    if (tileLen > featAligned) {
        tileLen = featAligned;
    }
    uint32_t tileNum = (featLen + tileLen - 1) / tileLen;
    uint32_t lastTileLen = featLen - (tileNum - 1) * tileLen;

    uint32_t usedCores = rows < coreNum ? rows : coreNum;
    tiling.set_rows(rows);
    tiling.set_featLen(featLen);
    tiling.set_rowsPerCore(rows / usedCores);
    tiling.set_bigCoreNum(rows % usedCores);
    tiling.set_tileLen(tileLen);
    tiling.set_tileNum(tileNum);
    tiling.set_lastTileLen(lastTileLen);
    tiling.set_usedCores(usedCores);

    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    const float *margin = attrs->GetAttrPointer<float>(0);
    const float *eps = attrs->GetAttrPointer<float>(1);
    tiling.set_margin(margin == nullptr ? 1.0f : *margin);
    tiling.set_eps(eps == nullptr ? 1e-6f : *eps);
    tiling.set_invRows(1.0f / static_cast<float>(rows));

    context->SetBlockDim(usedCores);
    context->SetTilingKey(dtype == ge::DT_FLOAT16 ? 1 : 0);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    // per-core partial sums (one 32B slot each) + system workspace for SyncAll
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = platform.GetLibApiWorkSpaceSize() + static_cast<size_t>(usedCores) * ALIGN_BYTES;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
