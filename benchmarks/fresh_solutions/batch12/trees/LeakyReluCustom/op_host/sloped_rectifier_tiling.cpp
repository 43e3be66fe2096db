// Tiling for SlopedRectifier: y = x >= 0 ? x : slope * x (element-wise).
#include "sloped_rectifier_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static constexpr uint32_t ALIGN_BYTES = 32;
static constexpr uint32_t QUEUE_DEPTH = 2;   // double buffering on in and out

ge::graphStatus SlopedRectifierTilingFunc(gert::TilingContext* ctx)
{
    auto ascend = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint64_t ub = 0;
    ascend.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t cores = ascend.GetCoreNumAiv();

    const ge::DataType dt = ctx->GetInputDesc(0)->GetDataType();
    const uint32_t elemBytes = (dt == ge::DT_FLOAT16 || dt == ge::DT_BF16) ? 2 : 4;
    const uint32_t alignElems = ALIGN_BYTES / elemBytes;
    const uint64_t total = ctx->GetInputShape(0)->GetStorageShape().GetShapeSize();

    // Split in units of 32 bytes so each core starts on an aligned address.
    const uint64_t units = (total + alignElems - 1) / alignElems;
    if (units < cores) {
        cores = units == 0 ? 1 : static_cast<uint32_t>(units);
    }
    const uint64_t unitsPerCore = units / cores;
    const uint32_t bigCores = static_cast<uint32_t>(units % cores);

    // in + out queues, double buffered; leave 8KB headroom.
    uint64_t tileBytes = (ub - 8 * 1024) / (QUEUE_DEPTH * 2);
    tileBytes = tileBytes / ALIGN_BYTES * ALIGN_BYTES;
    if (tileBytes > 32 * 1024) {
        tileBytes = 32 * 1024;
    }
    const uint32_t tileNum = static_cast<uint32_t>(tileBytes / elemBytes);

    float slope = 0.01f;
    const gert::RuntimeAttrs* attrs = ctx->GetAttrs();
    if (attrs != nullptr && attrs->GetAttrPointer<float>(0) != nullptr) {
        slope = *attrs->GetAttrPointer<float>(0);
    }

    SlopedRectifierTilingData td;
    td.set_totalNum(total);
    td.set_perCoreNum(unitsPerCore * alignElems);
    td.set_bigCoreCnt(bigCores);
    td.set_tileNum(tileNum);
    td.set_slope(slope);

    ctx->SetBlockDim(cores);
    ctx->SetTilingKey(elemBytes == 2 ? 1 : 0);
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* ws = ctx->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
