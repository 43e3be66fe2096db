#include "conv_offset_hswish_pool_mish_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t FLOATS_PER_BLOCK = 8;
// UB budget (bytes) reserved for the accumulator of one unit
constexpr uint32_t ACC_BUDGET = 96 * 1024;

inline uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }
}

ge::graphStatus ConvOffsetHswishPoolMishTilingFunc(gert::TilingContext *context)
{
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &ws = context->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 4 || ws.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    const auto *attrs = context->GetAttrs();
    const float offset = *attrs->GetAttrPointer<float>(0);
    const int64_t pool = *attrs->GetAttrPointer<int64_t>(1);

    uint32_t n = xs.GetDim(0), ci = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t co = ws.GetDim(0), kh = ws.GetDim(2), kw = ws.GetDim(3);
    if (ws.GetDim(1) != ci || kh > h || kw > w || pool <= 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t oh = h - kh + 1;
    uint32_t ow = w - kw + 1;
    uint32_t p = static_cast<uint32_t>(pool);
    uint32_t ph = oh / p;
    uint32_t pw = ow / p;
    if (ph == 0 || pw == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t owA = AlignUp(ow, FLOATS_PER_BLOCK);

    // accumulator per unit: coBlock * pool rows * owA floats
    uint32_t coBlock = ACC_BUDGET / (p * owA * sizeof(float));
    coBlock = coBlock == 0 ? 1 : coBlock;
    coBlock = coBlock > co ? co : coBlock;
    uint32_t coBlockNum = (co + coBlock - 1) / coBlock;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t units = n * ph * coBlockNum;
    if (cores > units) {
        cores = units;
    }

    ConvOffsetHswishPoolMishTilingData td;
    td.set_batch(n);
    td.set_inC(ci);
    td.set_inH(h);
    td.set_inW(w);
    td.set_outC(co);
    td.set_kH(kh);
    td.set_kW(kw);
    td.set_convW(ow);
    td.set_convWAlign(owA);
    td.set_pool(p);
    td.set_poolH(ph);
    td.set_poolW(pw);
    td.set_poolWAlign(AlignUp(pw, FLOATS_PER_BLOCK));
    td.set_coBlock(coBlock);
    td.set_coBlockNum(coBlockNum);
    td.set_totalUnits(units);
    td.set_unitsPerCore(units / cores);
    td.set_unitsTail(units % cores);
    td.set_offset(offset);

    context->SetBlockDim(cores);
    context->SetTilingKey(1);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *wsSize = context->GetWorkspaceSizes(1);
    wsSize[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
