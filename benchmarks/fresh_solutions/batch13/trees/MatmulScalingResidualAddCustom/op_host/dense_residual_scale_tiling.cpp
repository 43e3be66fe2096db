#include "dense_residual_scale_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

using namespace matmul_tiling;

namespace optiling {
ge::graphStatus DenseResidualScaleTilingFunc(gert::TilingContext *context)
{
    auto xShape = context->GetInputShape(0)->GetStorageShape();   // (M, K)
    auto wShape = context->GetInputShape(1)->GetStorageShape();   // (N, K)
    if (xShape.GetDimNum() != 2 || wShape.GetDimNum() != 2 || xShape.GetDim(1) != wShape.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    int32_t M = static_cast<int32_t>(xShape.GetDim(0));
    int32_t K = static_cast<int32_t>(xShape.GetDim(1));
    int32_t N = static_cast<int32_t>(wShape.GetDim(0));

    const float *scale = context->GetAttrs()->GetAttrPointer<float>(0);
    float s = scale == nullptr ? 1.0f : *scale;

    matmul_tiling::DataType dt = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ?
                                     matmul_tiling::DataType::DT_FLOAT16 : matmul_tiling::DataType::DT_FLOAT;

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aivNum = platform.GetCoreNumAiv();

    MultiCoreMatmulTiling mmTiling(platform);
    mmTiling.SetDim(aivNum);
    mmTiling.SetAType(TPosition::GM, CubeFormat::ND, dt, false);
    mmTiling.SetBType(TPosition::GM, CubeFormat::ND, dt, true);     // weight is (N, K)
    mmTiling.SetCType(TPosition::VECIN, CubeFormat::ND, dt);        // result lands in UB for the epilogue
    mmTiling.SetBiasType(TPosition::GM, CubeFormat::ND, dt);
    mmTiling.SetShape(M, N, K);
    mmTiling.SetOrgShape(M, N, K);
    mmTiling.SetBias(true);
    mmTiling.SetBufferSpace(-1, -1, -1);

    DenseResidualScaleTilingData tiling;
    if (mmTiling.GetTiling(tiling.mm) == -1) {
        return ge::GRAPH_FAILED;
    }
    tiling.set_outScale(1.0f + s);

    context->SetBlockDim(platform.CalcTschBlockDim(aivNum, platform.GetCoreNumAic(), aivNum));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
