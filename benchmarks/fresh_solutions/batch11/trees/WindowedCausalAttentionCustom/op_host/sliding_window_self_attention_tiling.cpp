#include <cmath>
#include "sliding_window_self_attention_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t KV_CHUNK_ROWS = 128;     // <= 255 so one vector instruction can repeat over the chunk
constexpr uint32_t MAX_HEAD_DIM = 128;
constexpr uint32_t ATTR_NUM_HEADS = 0;
constexpr uint32_t ATTR_WINDOW = 1;
} // namespace

ge::graphStatus SlidingWindowSelfAttentionTilingFunc(gert::TilingContext *context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape &xShape = context->GetInputShape(0)->GetStorageShape();
    if (xShape.GetDimNum() != 3) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t batch = static_cast<uint32_t>(xShape.GetDim(0));
    const uint32_t seqLen = static_cast<uint32_t>(xShape.GetDim(1));
    const uint32_t hidden = static_cast<uint32_t>(xShape.GetDim(2));

    auto attrs = context->GetAttrs();
    const int64_t heads = *attrs->GetAttrPointer<int64_t>(ATTR_NUM_HEADS);
    const int64_t window = *attrs->GetAttrPointer<int64_t>(ATTR_WINDOW);
    if (heads <= 0 || window < 0 || hidden % heads != 0) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t headDim = hidden / static_cast<uint32_t>(heads);
    // A head row has to be a whole number of 32B blocks and fit into two vector repeats.
    if (headDim % 8 != 0 || headDim > MAX_HEAD_DIM) {
        return ge::GRAPH_FAILED;
    }

    SlidingWindowSelfAttentionTilingData tiling;
    tiling.set_batch(batch);
    tiling.set_seqLen(seqLen);
    tiling.set_hidden(hidden);
    tiling.set_numHeads(static_cast<uint32_t>(heads));
    tiling.set_headDim(headDim);
    tiling.set_window(static_cast<uint32_t>(window));
    tiling.set_kvChunkRows(KV_CHUNK_ROWS);
    uint32_t visible = static_cast<uint32_t>(std::min<int64_t>(window + 1, seqLen));
    tiling.set_scoreLenAlign((visible + 7U) / 8U * 8U);
    tiling.set_scale(1.0f / std::sqrt(static_cast<float>(headDim)));

    // Projection GEMM: [B*N, D] x W^T[D, D] (+ bias); the same tiling serves all four linears.
    const uint32_t aicNum = platform.GetCoreNumAic();
    const uint32_t aivNum = platform.GetCoreNumAiv();
    const int32_t M = static_cast<int32_t>(batch * seqLen);
    matmul_tiling::MultiCoreMatmulTiling mm(platform);
    mm.SetDim(aivNum);
    mm.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    mm.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    mm.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetShape(M, hidden, hidden);
    mm.SetOrgShape(M, hidden, hidden);
    mm.SetBias(true);
    mm.SetBufferSpace(-1, -1, -1);
    if (mm.GetTiling(tiling.projTiling) == -1) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t mBlocks = (M + tiling.projTiling.get_singleCoreM() - 1) / tiling.projTiling.get_singleCoreM();
    const uint32_t nBlocks = (hidden + tiling.projTiling.get_singleCoreN() - 1) / tiling.projTiling.get_singleCoreN();
    tiling.set_mmCoreNum(mBlocks * nBlocks);

    // Attention phase: one unit of work is one (batch, token, head) query row.
    const uint32_t totalRows = batch * seqLen * static_cast<uint32_t>(heads);
    tiling.set_totalRows(totalRows);
    tiling.set_rowsPerCore((totalRows + aivNum - 1) / aivNum);

    context->SetBlockDim(aicNum);   // mixed kernel: one cube + two vector cores per block
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    // Workspace: Q, K, V and the pre-projection attention output, all [B, N, D] fp32.
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = platform.GetLibApiWorkSpaceSize() + 4ULL * M * hidden * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
