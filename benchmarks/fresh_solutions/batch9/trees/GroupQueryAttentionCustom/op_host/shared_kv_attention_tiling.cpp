#include <cmath>
#include "shared_kv_attention_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

// y[M, N] = a[M, K] @ w[N, K]^T + b[N]  (nn.Linear layout)
static int32_t LinearTiling(const platform_ascendc::PlatformAscendC &plat, int32_t cores, int32_t m, int32_t n,
                            int32_t k, TCubeTiling &dst)
{
    matmul_tiling::MultiCoreMatmulTiling tiler(plat);
    tiler.SetDim(cores);
    tiler.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    tiler.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT,
                   true);
    tiler.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    tiler.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                      matmul_tiling::DataType::DT_FLOAT);
    tiler.SetShape(m, n, k);
    tiler.SetOrgShape(m, n, k);
    tiler.SetBias(true);
    tiler.SetBufferSpace(-1, -1, -1);
    return tiler.GetTiling(dst);
}

static ge::graphStatus SharedKvAttentionTilingFunc(gert::TilingContext *context)
{
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();  // [B, L, D]
    auto attrs = context->GetAttrs();
    int64_t hq = *attrs->GetAttrPointer<int64_t>(0);
    int64_t hkv = *attrs->GetAttrPointer<int64_t>(1);
    int64_t B = xs.GetDim(0), L = xs.GetDim(1), D = xs.GetDim(2);
    if (hq <= 0 || hkv <= 0 || hq % hkv != 0 || D % hq != 0) {
        return ge::GRAPH_FAILED;
    }
    int64_t dh = D / hq;
    int64_t dkv = dh * hkv;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    int32_t aiv = static_cast<int32_t>(plat.GetCoreNumAiv());

    SharedKvAttentionTiling tiling;
    tiling.set_batch(B);
    tiling.set_seqLen(L);
    tiling.set_model(D);
    tiling.set_qHeads(hq);
    tiling.set_kvHeads(hkv);
    tiling.set_headDim(dh);
    tiling.set_kvModel(dkv);
    tiling.set_softmaxScale(1.0f / std::sqrt(static_cast<float>(dh)));
    tiling.set_aivNum(aiv);

    int32_t rows = static_cast<int32_t>(B * L);
    if (LinearTiling(plat, aiv, rows, D, D, tiling.mmQ) == -1 ||
        LinearTiling(plat, aiv, rows, dkv, D, tiling.mmKV) == -1 ||
        LinearTiling(plat, aiv, rows, D, D, tiling.mmOut) == -1) {
        return ge::GRAPH_FAILED;
    }

    context->SetBlockDim(plat.GetCoreNumAic());
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    // Q | K | V | attention output, all row-major [B*L, *]
    size_t elems = static_cast<size_t>(rows) * (2 * D + 2 * dkv);
    context->GetWorkspaceSizes(1)[0] = plat.GetLibApiWorkSpaceSize() + elems * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ops {
ge::graphStatus SharedKvAttentionTilingEntry(gert::TilingContext *context)
{
    return optiling::SharedKvAttentionTilingFunc(context);
}
}
