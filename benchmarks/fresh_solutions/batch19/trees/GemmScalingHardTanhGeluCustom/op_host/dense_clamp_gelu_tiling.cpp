#include "dense_clamp_gelu_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint64_t TILING_KEY_FP32 = 1;
constexpr uint64_t TILING_KEY_FP16 = 2;

float AttrOr(const gert::RuntimeAttrs *attrs, size_t idx, float dflt)
{
    const float *p = attrs->GetAttrPointer<float>(idx);
    return p == nullptr ? dflt : *p;
}
}

ge::graphStatus DenseClampGeluTilingFunc(gert::TilingContext *context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const auto &aShape = context->GetInputShape(0)->GetStorageShape();   // [M, K]
    const auto &bShape = context->GetInputShape(1)->GetStorageShape();   // [N, K]
    if (aShape.GetDimNum() != 2 || bShape.GetDimNum() != 2 || aShape.GetDim(1) != bShape.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    const int32_t M = static_cast<int32_t>(aShape.GetDim(0));
    const int32_t K = static_cast<int32_t>(aShape.GetDim(1));
    const int32_t N = static_cast<int32_t>(bShape.GetDim(0));

    const bool isHalf = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16;
    const auto inType = isHalf ? matmul_tiling::DataType::DT_FLOAT16 : matmul_tiling::DataType::DT_FLOAT;

    DenseClampGeluTilingData tiling;
    const auto *attrs = context->GetAttrs();
    tiling.set_m(M);
    tiling.set_n(N);
    tiling.set_k(K);
    tiling.set_alpha(AttrOr(attrs, 0, 1.0f));
    tiling.set_clipLow(AttrOr(attrs, 1, -1.0f));
    tiling.set_clipHigh(AttrOr(attrs, 2, 1.0f));
    if (tiling.get_clipLow() > tiling.get_clipHigh()) {
        return ge::GRAPH_FAILED;
    }

    const uint32_t aivNum = platform.GetCoreNumAiv();
    matmul_tiling::MultiCoreMatmulTiling cube(platform);
    cube.SetDim(aivNum);
    cube.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, inType);
    cube.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, inType, true);
    // accumulate and hand tiles to the vector unit in fp32; the epilogue casts if needed
    cube.SetCType(matmul_tiling::TPosition::VECIN, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    cube.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    cube.SetShape(M, N, K);
    cube.SetOrgShape(M, N, K);
    cube.SetBias(true);
    cube.SetBufferSpace(-1, -1, -1);
    if (cube.GetTiling(tiling.cube) == -1) {
        return ge::GRAPH_FAILED;
    }

    context->SetBlockDim(platform.GetCoreNumAic());
    context->SetTilingKey(isHalf ? TILING_KEY_FP16 : TILING_KEY_FP32);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}
