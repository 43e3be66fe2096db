#include "linear_relu_scale_down_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

using namespace matmul_tiling;

namespace optiling {

ge::graphStatus LinearReluScaleDownTiling(gert::TilingContext *context)
{
    // x: (M, K), weight: (N, K) -- row-major like a dense layer's weight, used transposed
    auto xShape = context->GetInputShape(0)->GetStorageShape();
    auto wShape = context->GetInputShape(1)->GetStorageShape();
    if (xShape.GetDimNum() < 2 || wShape.GetDimNum() != 2) {
        return ge::GRAPH_FAILED;
    }
    int32_t k = static_cast<int32_t>(xShape.GetDim(xShape.GetDimNum() - 1));
    int32_t m = static_cast<int32_t>(xShape.GetShapeSize() / k);   // leading dims flattened
    int32_t n = static_cast<int32_t>(wShape.GetDim(0));
    if (wShape.GetDim(1) != k) {
        return ge::GRAPH_FAILED;
    }
    const float *divisor = context->GetAttrs()->GetAttrPointer<float>(0);
    if (divisor == nullptr || *divisor == 0.0f) {
        return ge::GRAPH_FAILED;
    }

    DataType dt = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? DataType::DT_FLOAT16
                                                                             : DataType::DT_FLOAT;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aiv = plat.GetCoreNumAiv();

    MultiCoreMatmulTiling mmTiling(plat);
    mmTiling.SetDim(aiv);
    mmTiling.SetAType(TPosition::GM, CubeFormat::ND, dt, false);
    mmTiling.SetBType(TPosition::GM, CubeFormat::ND, dt, true);
    mmTiling.SetCType(TPosition::VECIN, CubeFormat::ND, DataType::DT_FLOAT);
    mmTiling.SetBiasType(TPosition::GM, CubeFormat::ND, dt);
    mmTiling.SetShape(m, n, k);
    mmTiling.SetOrgShape(m, n, k);
    mmTiling.SetBias(true);
    mmTiling.SetBufferSpace(-1, -1, -1);

    LinearReluScaleDownTilingData tiling;
    if (mmTiling.GetTiling(tiling.mm) == -1) {
        return ge::GRAPH_FAILED;
    }
    tiling.set_invDivisor(1.0f / *divisor);

    // mixed launch: one cube core drives two vector cores
    uint32_t used = tiling.mm.get_usedCoreNum();
    context->SetBlockDim((used + 1) / 2);
    context->SetTilingKey(dt == DataType::DT_FLOAT16 ? 1 : 0);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
