#include <cmath>
#include "shared_kv_attention_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

using namespace matmul_tiling;

namespace optiling {
namespace {
constexpr uint32_t Q_BLOCK_ROWS = 64;
constexpr uint32_t SOFTMAX_CHUNK = 4096;

bool BuildCube(const platform_ascendc::PlatformAscendC &plat, TCubeTiling &out,
               int32_t m, int32_t n, int32_t k, bool transB, bool withBias)
{
    MatmulApiTiling mt(plat);
    mt.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, transB);
    mt.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    if (withBias) {
        mt.SetBiasType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
        mt.SetBias(true);
    } else {
        mt.SetBias(false);
    }
    mt.SetShape(m, n, k);
    mt.SetOrgShape(m, n, k);
    mt.SetBufferSpace(-1, -1, -1);
    return mt.GetTiling(out) != -1;
}
}  // namespace

static ge::graphStatus SharedKvAttentionTiling(gert::TilingContext *context)
{
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    if (xs.GetDimNum() != 3) {
        return ge::GRAPH_FAILED;
    }
    uint32_t b = xs.GetDim(0), n = xs.GetDim(1), d = xs.GetDim(2);
    uint32_t heads = static_cast<uint32_t>(*context->GetAttrs()->GetAttrPointer<int64_t>(0));
    if (heads == 0 || d % heads != 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t dh = d / heads;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aic = plat.GetCoreNumAic();
    uint32_t aiv = plat.GetCoreNumAiv();

    uint32_t tokens = b * n;
    uint32_t projRows = (tokens + aiv - 1) / aiv;
    uint32_t rowsPerBatch = n * heads;             // Q viewed as [B, N*H, dh]
    uint32_t qRows = std::min(Q_BLOCK_ROWS, rowsPerBatch);
    uint32_t blocks = (rowsPerBatch + qRows - 1) / qRows;

    SharedKvAttentionTilingData td;
    td.set_batch(b);
    td.set_seqLen(n);
    td.set_modelDim(d);
    td.set_numHeads(heads);
    td.set_headDim(dh);
    td.set_workers(aiv);
    td.set_projRows(projRows);
    td.set_qBlockRows(qRows);
    td.set_blocksPerBatch(blocks);
    td.set_softmaxChunk(std::min(SOFTMAX_CHUNK, (n + 7) / 8 * 8));
    td.set_scale(1.0f / std::sqrt(static_cast<float>(dh)));

    if (!BuildCube(plat, td.projTiling, projRows, d, d, true, true) ||
        !BuildCube(plat, td.kvTiling, projRows, dh, d, true, true) ||
        !BuildCube(plat, td.scoreTiling, qRows, n, dh, true, false) ||
        !BuildCube(plat, td.pvTiling, qRows, dh, n, false, false)) {
        return ge::GRAPH_FAILED;
    }

    // mixed kernel: block dim counts cube cores, each paired with two vector cores
    context->SetBlockDim(aic);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    // user workspace: Q, K, V, context, one score block per worker
    uint64_t fl = sizeof(float);
    uint64_t user = static_cast<uint64_t>(tokens) * d * fl * 2 +
                    static_cast<uint64_t>(tokens) * dh * fl * 2 +
                    static_cast<uint64_t>(aiv) * qRows * n * fl;
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize() + user;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
ge::graphStatus SharedKvAttentionTilingEntry(gert::TilingContext *context)
{
    return optiling::SharedKvAttentionTiling(context);
}
}
