#include "dense_bias_act_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus DenseBiasActTilingFunc(gert::TilingContext *ctx)
{
    const gert::Shape &xs = ctx->GetInputShape(0)->GetStorageShape();   // [M, K]
    const gert::Shape &ws = ctx->GetInputShape(1)->GetStorageShape();   // [N, K]
    if (xs.GetDimNum() != 2 || ws.GetDimNum() != 2 || xs.GetDim(1) != ws.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    int32_t m = static_cast<int32_t>(xs.GetDim(0));
    int32_t k = static_cast<int32_t>(xs.GetDim(1));
    int32_t n = static_cast<int32_t>(ws.GetDim(0));
    const bool *relu = ctx->GetAttrs()->GetAttrPointer<bool>(0);

    auto dt = ctx->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? matmul_tiling::DataType::DT_FLOAT16
                                                                     : matmul_tiling::DataType::DT_FLOAT;
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint32_t aic = plat.GetCoreNumAic();

    matmul_tiling::MultiCoreMatmulTiling gemm(plat);
    gemm.SetDim(aic);
    gemm.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt, false);
    // nn-style weight [out, in] is consumed transposed
    gemm.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt, true);
    // results come back to the vector unit for the activation
    gemm.SetCType(matmul_tiling::TPosition::VECIN, matmul_tiling::CubeFormat::ND, dt);
    gemm.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt);
    gemm.SetShape(m, n, k);
    gemm.SetOrgShape(m, n, k);
    gemm.EnableBias(true);
    gemm.SetBufferSpace(-1, -1, -1);

    DenseBiasActTilingData td;
    if (gemm.GetTiling(td.gemm) == -1) {
        return ge::GRAPH_FAILED;
    }
    td.set_batch(m);
    td.set_inFeatures(k);
    td.set_outFeatures(n);
    td.set_applyRelu((relu == nullptr || *relu) ? 1 : 0);

    ctx->SetBlockDim(aic);
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());
    ctx->GetWorkspaceSizes(1)[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
