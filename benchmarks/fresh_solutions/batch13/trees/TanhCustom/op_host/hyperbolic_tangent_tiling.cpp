#include "hyperbolic_tangent_tiling.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"
#include <vector>

namespace optiling {

static constexpr uint32_t kBufferNum = 2;
static constexpr uint32_t kMaxTile = 16384;

ge::graphStatus HyperbolicTangentTilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t coreNum = plat.GetCoreNumAiv();

    const uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    const ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    const uint32_t typeSize = dt == ge::DT_FLOAT16 ? 2 : 4;
    const uint32_t blockElems = 32 / typeSize;

    // Per element: in + out, each double buffered; the Tanh scratch is sized from the
    // library's own estimate for a candidate tile and then checked against what is left.
    uint32_t tile = kMaxTile;
    uint32_t tmpBytes = 0;
    while (tile >= 256) {
        uint32_t maxTmp = 0, minTmp = 0;
        std::vector<int64_t> dims = {static_cast<int64_t>(tile)};
        AscendC::GetTanhMaxMinTmpSize(ge::Shape(dims), typeSize, false, maxTmp, minTmp);
        uint64_t need = 2ULL * kBufferNum * tile * typeSize + maxTmp;
        if (need <= ub - 1024) {
            tmpBytes = maxTmp;
            break;
        }
        tile /= 2;
    }
    if (tmpBytes == 0) {
        return ge::GRAPH_FAILED;
    }

    uint64_t blocks = (total + blockElems - 1) / blockElems;
    if (blocks < coreNum) coreNum = static_cast<uint32_t>(blocks == 0 ? 1 : blocks);
    uint64_t perCore = (blocks + coreNum - 1) / coreNum * blockElems;
    coreNum = static_cast<uint32_t>((total + perCore - 1) / perCore);   // drop idle cores
    if (coreNum == 0) coreNum = 1;

    HyperbolicTangentTilingData td;
    td.set_elemTotal(total);
    td.set_elemPerCore(perCore);
    td.set_tileLen(tile);
    td.set_tmpBytes(tmpBytes);

    context->SetBlockDim(coreNum);
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 1 : 0);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}
