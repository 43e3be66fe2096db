// Tiling for DenseBiasRectify: y = act(x @ weight^T + bias), act = ReLU or identity.
// The GEMM runs on the cube unit through the high-level Matmul API; the activation is applied
// on the vector unit to every base block before it is written back.
#include "dense_bias_rectify_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include <algorithm>

namespace optiling {
namespace {
constexpr int32_t BASE_M = 128;
constexpr int32_t BASE_N = 128;
}

ge::graphStatus DenseBiasRectifyTilingFunc(gert::TilingContext* context)
{
    const gert::Shape& xShape = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& wShape = context->GetInputShape(1)->GetStorageShape();
    const size_t xRank = xShape.GetDimNum();
    if (xRank < 2 || wShape.GetDimNum() != 2) {
        return ge::GRAPH_FAILED;
    }
    const int64_t k = xShape.GetDim(xRank - 1);
    int64_t m = 1;
    for (size_t i = 0; i + 1 < xRank; ++i) {
        m *= xShape.GetDim(i);   // leading dims are flattened into rows
    }
    const int64_t n = wShape.GetDim(0);
    if (wShape.GetDim(1) != k) {
        return ge::GRAPH_FAILED;
    }

    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    const bool* reluAttr = attrs->GetAttrPointer<bool>(0);
    const bool relu = reluAttr == nullptr ? true : *reluAttr;
    const bool hasBias = context->GetOptionalInputShape(2) != nullptr;

    const ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    const auto mmType = dt == ge::DT_FLOAT16 ? matmul_tiling::DataType::DT_FLOAT16 : matmul_tiling::DataType::DT_FLOAT;

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t aivNum = platform.GetCoreNumAiv();

    matmul_tiling::MultiCoreMatmulTiling mmTiling(platform);
    mmTiling.SetDim(aivNum);
    mmTiling.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, mmType, false);
    mmTiling.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, mmType, true);
    mmTiling.SetCType(matmul_tiling::TPosition::VECIN, matmul_tiling::CubeFormat::ND, mmType);
    mmTiling.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, mmType);
    mmTiling.SetShape(m, n, k);
    mmTiling.SetOrgShape(m, n, k);
    mmTiling.SetBias(hasBias);
    mmTiling.SetFixSplit(std::min<int64_t>(BASE_M, (m + 15) / 16 * 16), std::min<int64_t>(BASE_N, (n + 15) / 16 * 16), -1);
    mmTiling.SetBufferSpace(-1, -1, -1);

    DenseBiasRectifyTilingData tiling;
    if (mmTiling.GetTiling(tiling.mm) == -1) {
        return ge::GRAPH_FAILED;
    }
    tiling.set_applyRelu(relu ? 1 : 0);
    tiling.set_hasBias(hasBias ? 1 : 0);

    // Mixed AIC:AIV = 1:2 kernel: block dim counts cube cores.
    const uint32_t usedAiv = static_cast<uint32_t>(tiling.mm.get_usedCoreNum());
    context->SetBlockDim((usedAiv + 1) / 2);
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 1 : 0);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = static_cast<size_t>(platform.GetLibApiWorkSpaceSize());   // Matmul system workspace
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
