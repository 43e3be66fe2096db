#include "dense_activation_chain_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

using namespace matmul_tiling;

namespace optiling {
static constexpr uint32_t EPI_COLS_MAX = 2048;

ge::graphStatus DenseActivationChainTiling(gert::TilingContext *ctx)
{
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    auto xShape = ctx->GetInputShape(0)->GetStorageShape();   // [M, K]
    auto wShape = ctx->GetInputShape(1)->GetStorageShape();   // [N, K]
    int32_t M = static_cast<int32_t>(xShape.GetDim(0));
    int32_t K = static_cast<int32_t>(xShape.GetDim(1));
    int32_t N = static_cast<int32_t>(wShape.GetDim(0));
    if (wShape.GetDim(1) != K) {
        return ge::GRAPH_FAILED;
    }

    const float *lo = ctx->GetAttrs()->GetAttrPointer<float>(0);
    const float *hi = ctx->GetAttrs()->GetAttrPointer<float>(1);

    bool half = ctx->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16;
    DataType inDt = half ? DataType::DT_FLOAT16 : DataType::DT_FLOAT;
    uint32_t aicNum = plat.GetCoreNumAic();

    MultiCoreMatmulTiling mt(plat);
    mt.SetDim(aicNum);
    mt.SetAType(TPosition::GM, CubeFormat::ND, inDt, false);
    mt.SetBType(TPosition::GM, CubeFormat::ND, inDt, true);   // weight stored [N, K]
    mt.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);  // fp32 accumulation kept for the epilogue
    mt.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    mt.SetShape(M, N, K);
    mt.SetOrgShape(M, N, K);
    mt.SetBias(true);
    mt.SetBufferSpace(-1, -1, -1);

    DenseActivationChainTilingData td;
    if (mt.GetTiling(td.mm) == -1) {
        return ge::GRAPH_FAILED;
    }
    uint32_t singleN = static_cast<uint32_t>(td.mm.get_singleCoreN());
    uint32_t epi = singleN < EPI_COLS_MAX ? singleN : EPI_COLS_MAX;
    epi = (epi + 15) / 16 * 16;

    td.set_M(M);
    td.set_N(N);
    td.set_K(K);
    td.set_epiCols(epi);
    td.set_clipLow(lo ? *lo : -1.0f);
    td.set_clipHigh(hi ? *hi : 1.0f);

    ctx->SetBlockDim(aicNum);
    ctx->SetTilingKey(half ? 1 : 0);
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());

    // fp32 staging of the product before the activation chain
    size_t *ws = ctx->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize() + static_cast<size_t>(M) * N * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
