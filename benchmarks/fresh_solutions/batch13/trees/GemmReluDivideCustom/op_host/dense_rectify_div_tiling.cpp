#include "dense_rectify_div_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

ge::graphStatus DenseRectifyDivTilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());

    auto xShape = context->GetInputShape(0)->GetStorageShape();   // (M, K)
    auto wShape = context->GetInputShape(1)->GetStorageShape();   // (N, K) — Linear layout
    if (xShape.GetDimNum() != 2 || wShape.GetDimNum() != 2 || xShape.GetDim(1) != wShape.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    int32_t M = static_cast<int32_t>(xShape.GetDim(0));
    int32_t K = static_cast<int32_t>(xShape.GetDim(1));
    int32_t N = static_cast<int32_t>(wShape.GetDim(0));

    const float *divisor = context->GetAttrs()->GetAttrPointer<float>(0);
    float div = (divisor == nullptr) ? 1.0f : *divisor;
    if (div == 0.0f) {
        return ge::GRAPH_FAILED;
    }

    bool isHalf = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16;
    auto dt = isHalf ? matmul_tiling::DataType::DT_FLOAT16 : matmul_tiling::DataType::DT_FLOAT;
    uint32_t outBytes = isHalf ? 2 : 4;

    // mixed cube + vector kernel: the tiling splits over vector cores, two per cube core
    uint32_t aivNum = plat.GetCoreNumAiv();
    matmul_tiling::MultiCoreMatmulTiling mmTiling(plat);
    mmTiling.SetDim(aivNum);
    mmTiling.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt, false);
    mmTiling.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt, true);
    mmTiling.SetCType(matmul_tiling::TPosition::VECIN, matmul_tiling::CubeFormat::ND, dt);
    mmTiling.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt);
    mmTiling.SetShape(M, N, K);
    mmTiling.SetOrgShape(M, N, K);
    mmTiling.EnableBias(true);
    // keep a base tile small enough that the epilogue buffer fits comfortably in UB
    mmTiling.SetFixSplit(128, 128, -1);
    mmTiling.SetBufferSpace(-1, -1, -1);

    DenseRectifyDivTilingData td;
    if (mmTiling.GetTiling(td.gemm) == -1) {
        return ge::GRAPH_FAILED;
    }
    td.set_invDivisor(1.0f / div);
    td.set_outTileBytes(static_cast<uint32_t>(td.gemm.get_baseM() * td.gemm.get_baseN()) * outBytes);

    uint32_t used = static_cast<uint32_t>(td.gemm.get_usedCoreNum());
    context->SetBlockDim((used + 1) / 2);   // block dim counts cube cores (AIC:AIV = 1:2)
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}
