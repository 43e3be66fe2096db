#include "conv_batch_stat_norm_scale_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static constexpr uint32_t kAlignF32 = 8;
static constexpr uint32_t kRowBudget = 120 * 1024;   // acc + sum + sum-of-squares rows
static constexpr uint32_t kWeightBudget = 32 * 1024; // cached filter taps of one block
static constexpr uint32_t kNormChunk = 8192;
static constexpr uint32_t kMaxBlock = 64;      // per-block statistics kept in kernel registers

ge::graphStatus ConvBatchStatNormScaleTilingFunc(gert::TilingContext* context)
{
    const auto& xs = context->GetInputShape(0)->GetStorageShape();   // [N, Cin, H, W]
    const auto& ws = context->GetInputShape(1)->GetStorageShape();   // [Cout, Cin, KH, KW]
    if (xs.GetDimNum() != 4 || ws.GetDimNum() != 4 || xs.GetDim(1) != ws.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    ConvBatchStatNormScaleTilingData td;
    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t cout = ws.GetDim(0), kh = ws.GetDim(2), kw = ws.GetDim(3);
    if (h < kh || w < kw) {
        return ge::GRAPH_FAILED;
    }
    uint32_t oh = h - kh + 1;
    uint32_t ow = w - kw + 1;
    uint32_t owAlign = (ow + kAlignF32 - 1) / kAlignF32 * kAlignF32;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = plat.GetCoreNumAiv();
    uint32_t used = cout < coreNum ? cout : coreNum;
    used = used == 0 ? 1 : used;
    uint32_t chPerCore = cout / used;
    uint32_t chTail = cout % used;
    uint32_t maxCh = chPerCore + (chTail ? 1 : 0);

    uint32_t blkByRows = kRowBudget / (3 * owAlign * sizeof(float));
    uint32_t blkByWeights = kWeightBudget / (cin * kh * kw * sizeof(float));
    uint32_t chBlock = blkByRows < blkByWeights ? blkByRows : blkByWeights;
    chBlock = chBlock < maxCh ? chBlock : maxCh;
    chBlock = chBlock < kMaxBlock ? chBlock : kMaxBlock;
    if (chBlock == 0) {
        return ge::GRAPH_FAILED;
    }

    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    td.set_eps(*attrs->GetAttrPointer<float>(0));
    td.set_scale(*attrs->GetAttrPointer<float>(1));
    td.set_n(n);
    td.set_cin(cin);
    td.set_cout(cout);
    td.set_h(h);
    td.set_w(w);
    td.set_kh(kh);
    td.set_kw(kw);
    td.set_oh(oh);
    td.set_ow(ow);
    td.set_owAlign(owAlign);
    td.set_chPerCore(chPerCore);
    td.set_chTail(chTail);
    td.set_chBlock(chBlock);
    td.set_normChunk(kNormChunk);

    context->SetBlockDim(used);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* wsSize = context->GetWorkspaceSizes(1);
    wsSize[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
