#include "dense_bn_scaled_softmax_tiling.h"
#include "tiling/platform/platform_ascendc.h"

using namespace matmul_tiling;

namespace optiling {
namespace {
constexpr uint32_t MAX_RESIDENT_ROW = 10240;  // phase 3 keeps a whole row + coefficients in UB
constexpr uint32_t FEAT_TILE = 2048;

uint32_t CeilDivU(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
uint32_t AlignU(uint32_t a, uint32_t b) { return CeilDivU(a, b) * b; }
} // namespace

ge::graphStatus DenseBnScaledSoftmaxTilingFunc(gert::TilingContext *context)
{
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &ws = context->GetInputShape(1)->GetStorageShape();
    const gert::Shape &ss = context->GetInputShape(5)->GetStorageShape();
    if (xs.GetDimNum() != 2 || ws.GetDimNum() != 2 || xs.GetDim(1) != ws.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    uint32_t M = static_cast<uint32_t>(xs.GetDim(0));
    uint32_t K = static_cast<uint32_t>(xs.GetDim(1));
    uint32_t N = static_cast<uint32_t>(ws.GetDim(0));
    if (N > MAX_RESIDENT_ROW) {
        return ge::GRAPH_FAILED;
    }
    uint32_t scaleLen = static_cast<uint32_t>(ss.GetShapeSize());
    if (scaleLen != 1 && scaleLen != N) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aicNum = plat.GetCoreNumAic();
    uint32_t aivNum = plat.GetCoreNumAiv();

    DenseBnScaledSoftmaxTiling td;

    // ---- cube tiling, B is given as (N, K) and used transposed ----
    MultiCoreMatmulTiling mm(plat);
    mm.SetDim(aicNum);
    mm.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    mm.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetBiasType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetShape(M, N, K);
    mm.SetOrgShape(M, N, K);
    mm.SetBias(true);
    mm.SetBufferSpace(-1, -1, -1);
    if (mm.GetTiling(td.mmTiling) == -1) {
        return ge::GRAPH_FAILED;
    }

    // ---- vector phases ----
    td.set_batch(M);
    td.set_inDim(K);
    td.set_outDim(N);
    td.set_outDimPad(AlignU(N, 64));
    td.set_featPerCore(AlignU(CeilDivU(N, aivNum), 8));
    td.set_featTile(FEAT_TILE);
    td.set_rowsPerCore(CeilDivU(M, aivNum));
    td.set_scaleLen(scaleLen);
    const float *eps = context->GetAttrs()->GetAttrPointer<float>(0);
    td.set_eps(eps != nullptr ? *eps : 1e-5f);

    // mixed kernel: block dim counts cube cores, each paired with two vector cores
    context->SetBlockDim(aicNum);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    // user workspace: coefA[N] and coefB[N]
    size_t *wsz = context->GetWorkspaceSizes(1);
    wsz[0] = plat.GetLibApiWorkSpaceSize() + 2 * AlignU(N, 64) * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
