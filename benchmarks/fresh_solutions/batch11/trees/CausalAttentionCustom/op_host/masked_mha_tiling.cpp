#include <cmath>
#include "masked_mha_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static int64_t ProjTiling(const platform_ascendc::PlatformAscendC& plat, uint32_t cores,
                          int32_t m, int32_t n, int32_t k, TCubeTiling& t)
{
    matmul_tiling::MultiCoreMatmulTiling api(plat);
    api.SetDim(cores);
    api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT,
                 true);
    api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    api.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    api.SetShape(m, n, k);
    api.SetOrgShape(m, n, k);
    api.SetBias(true);
    api.SetBufferSpace(-1, -1, -1);
    return api.GetTiling(t);
}

ge::graphStatus MaskedMhaTilingFunc(gert::TilingContext* context)
{
    auto xShape = context->GetInputShape(0)->GetStorageShape();  // (B, S, E)
    if (xShape.GetDimNum() != 3) {
        return ge::GRAPH_FAILED;
    }
    const int64_t* headsAttr = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    uint32_t heads = static_cast<uint32_t>(*headsAttr);
    uint32_t batch = xShape.GetDim(0);
    uint32_t seq = xShape.GetDim(1);
    uint32_t dim = xShape.GetDim(2);
    if (heads == 0 || dim % heads != 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t hd = dim / heads;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aic = plat.GetCoreNumAic();

    MaskedMhaTilingData tiling;
    tiling.set_batch(batch);
    tiling.set_seqLen(seq);
    tiling.set_modelDim(dim);
    tiling.set_heads(heads);
    tiling.set_headDim(hd);
    tiling.set_headDimAlign((hd + 7) / 8 * 8);
    tiling.set_seqAlign((seq + 7) / 8 * 8);
    tiling.set_softmaxScale(1.0f / std::sqrt(static_cast<float>(hd)));
    tiling.set_aivNum(plat.GetCoreNumAiv());

    int32_t m = static_cast<int32_t>(batch * seq);
    if (ProjTiling(plat, aic, m, 3 * dim, dim, tiling.inProj) == -1 ||
        ProjTiling(plat, aic, m, dim, dim, tiling.outProj) == -1) {
        return ge::GRAPH_FAILED;
    }

    context->SetBlockDim(aic);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    // workspace: packed qkv (M x 3E) + per-head context (M x E)
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = static_cast<size_t>(m) * dim * 4 * sizeof(float) + plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
