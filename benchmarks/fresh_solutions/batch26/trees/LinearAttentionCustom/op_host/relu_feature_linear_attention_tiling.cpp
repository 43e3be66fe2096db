#include "relu_feature_linear_attention_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

using namespace matmul_tiling;

namespace optiling {
namespace {
constexpr uint32_t KV_BLOCK_M = 128;
constexpr uint32_t KV_BLOCK_N = 256;
constexpr uint32_t OUT_BLOCK_M = 128;
constexpr uint32_t OUT_BLOCK_N = 256;
constexpr uint32_t MAP_TILE_BYTES = 32 * 1024;

uint32_t Min(uint32_t a, uint32_t b) { return a < b ? a : b; }

// Single-core tiling for one block of a (possibly A-transposed) GEMM.
bool BuildBlockTiling(const platform_ascendc::PlatformAscendC &plat, DataType dt, bool transA,
                      uint32_t orgM, uint32_t orgN, uint32_t orgK, uint32_t blkM, uint32_t blkN,
                      TCubeTiling &out)
{
    MatmulApiTiling api(plat);
    api.SetAType(TPosition::GM, CubeFormat::ND, dt, transA);
    api.SetBType(TPosition::GM, CubeFormat::ND, dt, false);
    api.SetCType(TPosition::GM, CubeFormat::ND, dt);
    api.SetOrgShape(orgM, orgN, orgK);
    api.SetShape(blkM, blkN, orgK);
    api.SetBias(false);
    api.SetBufferSpace(-1, -1, -1);
    return api.GetTiling(out) != -1;
}
} // namespace

ge::graphStatus ReluFeatureLinearAttentionTiling(gert::TilingContext *context)
{
    const gert::Shape &qs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &vs = context->GetInputShape(2)->GetStorageShape();
    if (qs.GetDimNum() != 3 || vs.GetDimNum() != 3) {
        return ge::GRAPH_FAILED;
    }
    uint32_t B = qs.GetDim(0);
    uint32_t S = qs.GetDim(1);
    uint32_t D = qs.GetDim(2);
    uint32_t Dv = vs.GetDim(2);

    float eps = 1e-6f;
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    if (attrs != nullptr && attrs->GetAttrPointer<float>(0) != nullptr) {
        eps = *attrs->GetAttrPointer<float>(0);
    }

    ge::DataType geType = context->GetInputDesc(0)->GetDataType();
    DataType mmType = (geType == ge::DT_FLOAT16) ? DataType::DT_FLOAT16 : DataType::DT_FLOAT;
    uint32_t elemBytes = (geType == ge::DT_FLOAT16) ? 2 : 4;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());

    ReluFeatureLinearAttentionTilingData td;
    td.set_batch(B);
    td.set_seqLen(S);
    td.set_featDim(D);
    td.set_valDim(Dv);
    td.set_eps(eps);
    td.set_mapTile(MAP_TILE_BYTES / elemBytes);

    uint32_t kvM = Min(D, KV_BLOCK_M);
    uint32_t kvN = Min(Dv, KV_BLOCK_N);
    uint32_t oM = Min(S, OUT_BLOCK_M);
    uint32_t oN = Min(Dv, OUT_BLOCK_N);
    td.set_kvBlockM(kvM);
    td.set_kvBlockN(kvN);
    td.set_outBlockM(oM);
    td.set_outBlockN(oN);

    // KV[D, Dv] = phi(K)^T [D, S] x V [S, Dv]
    if (!BuildBlockTiling(plat, mmType, true, D, Dv, S, kvM, kvN, td.kvTiling)) {
        return ge::GRAPH_FAILED;
    }
    // out[S, Dv] = phi(Q) [S, D] x KV [D, Dv]
    if (!BuildBlockTiling(plat, mmType, false, S, Dv, D, oM, oN, td.outTiling)) {
        return ge::GRAPH_FAILED;
    }

    // mixed kernel: blockDim counts AI cube cores, each paired with two vector cores
    uint32_t aicNum = plat.GetCoreNumAic();
    context->SetBlockDim(aicNum);

    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    // user workspace: phi(Q), phi(K) and the per-batch KV matrices
    size_t user = static_cast<size_t>(B) * S * D * elemBytes * 2 + static_cast<size_t>(B) * D * Dv * elemBytes;
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = user + plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
