#include <cmath>
#include "blockwise_softmax_attention_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t MAX_BLOCK = 64;     // keeps repeat counts of strided vector calls small
constexpr uint64_t UB_SLACK = 16 * 1024;
}

ge::graphStatus BlockwiseSoftmaxAttentionTilingFunc(gert::TilingContext *context)
{
    auto q = context->GetInputShape(0)->GetStorageShape();   // (B, Hn, Sq, D)
    auto k = context->GetInputShape(1)->GetStorageShape();   // (B, Hn, Skv, D)
    if (q.GetDimNum() != 4 || k.GetDimNum() != 4 || q.GetDim(3) != k.GetDim(3)) {
        return ge::GRAPH_FAILED;
    }
    uint32_t bh = static_cast<uint32_t>(q.GetDim(0) * q.GetDim(1));
    uint32_t sq = static_cast<uint32_t>(q.GetDim(2));
    uint32_t skv = static_cast<uint32_t>(k.GetDim(2));
    uint32_t d = static_cast<uint32_t>(q.GetDim(3));
    if (d % 16 != 0) {
        return ge::GRAPH_FAILED;   // head dim must fill whole 32-byte blocks for fp16 and fp32
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);

    // UB per block row: Q, O (float), K, V, product scratch (float), staging (input type)
    uint64_t perRow = static_cast<uint64_t>(d) * (5 * sizeof(float) + sizeof(float));
    uint64_t rows = (ub - UB_SLACK) / perRow;
    uint32_t blk = static_cast<uint32_t>(rows < MAX_BLOCK ? rows : MAX_BLOCK) / 8 * 8;
    if (blk == 0) {
        return ge::GRAPH_FAILED;
    }

    uint32_t qBlocks = (sq + blk - 1) / blk;
    uint32_t tasks = bh * qBlocks;
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > tasks) {
        cores = tasks;
    }

    const float *scaleAttr = context->GetAttrs()->GetAttrPointer<float>(0);
    float scale = (scaleAttr != nullptr && *scaleAttr > 0.0f) ? *scaleAttr : 1.0f / std::sqrt(static_cast<float>(d));

    BlockwiseSoftmaxAttentionTiling t;
    t.set_batchHeads(bh);
    t.set_qLen(sq);
    t.set_kvLen(skv);
    t.set_headDim(d);
    t.set_qBlock(blk);
    t.set_kvBlock(blk);
    t.set_qBlocksPerHead(qBlocks);
    t.set_totalTasks(tasks);
    t.set_coreNum(cores);
    t.set_scale(scale);

    context->SetTilingKey(context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 1 : 0);
    context->SetBlockDim(cores);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
