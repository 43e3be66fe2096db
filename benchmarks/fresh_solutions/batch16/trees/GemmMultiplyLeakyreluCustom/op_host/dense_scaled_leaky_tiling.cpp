// Host tiling for DenseScaledLeaky: y = leaky_relu((x @ W^T + b) * scale, slope)
#include "dense_scaled_leaky_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus DenseScaledLeakyTiling(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();   // [M, K]
    const gert::Shape &ws = context->GetInputShape(1)->GetStorageShape();   // [N, K]
    if (xs.GetDimNum() != 2 || ws.GetDimNum() != 2 || xs.GetDim(1) != ws.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    int32_t m = static_cast<int32_t>(xs.GetDim(0));
    int32_t k = static_cast<int32_t>(xs.GetDim(1));
    int32_t n = static_cast<int32_t>(ws.GetDim(0));

    matmul_tiling::DataType dt = matmul_tiling::DataType::DT_FLOAT;
    if (context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16) {
        dt = matmul_tiling::DataType::DT_FLOAT16;
    }

    // one AIC drives each block; the matmul is split over all cube cores
    uint32_t coreNum = plat.GetCoreNumAic();
    matmul_tiling::MultiCoreMatmulTiling mt(plat);
    mt.SetDim(coreNum);
    mt.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt, false);
    mt.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt, true);
    mt.SetCType(matmul_tiling::TPosition::VECIN, matmul_tiling::CubeFormat::ND, dt);
    mt.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt);
    mt.SetShape(m, n, k);
    mt.SetOrgShape(m, n, k);
    mt.SetBias(true);
    mt.SetBufferSpace(-1, -1, -1);
    // keep the C tile small enough to post-process it in UB with room to spare
    mt.SetFixSplit(128, 128, -1);

    DenseScaledLeakyTilingData td;
    if (mt.GetTiling(td.mmTiling) == -1) {
        return ge::GRAPH_FAILED;
    }

    const auto *attrs = context->GetAttrs();
    const float *scale = attrs->GetAttrPointer<float>(0);
    const float *slope = attrs->GetAttrPointer<float>(1);
    td.set_scale(scale == nullptr ? 1.0f : *scale);
    td.set_negativeSlope(slope == nullptr ? 0.01f : *slope);

    int32_t mBlocks = (m + td.mmTiling.get_singleCoreM() - 1) / td.mmTiling.get_singleCoreM();
    int32_t nBlocks = (n + td.mmTiling.get_singleCoreN() - 1) / td.mmTiling.get_singleCoreN();
    uint32_t used = static_cast<uint32_t>(mBlocks * nBlocks);
    td.set_usedCoreNum(used);
    context->SetBlockDim(used < coreNum ? used : coreNum);

    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *wsSize = context->GetWorkspaceSizes(1);
    wsSize[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
