// Host tiling: cube tiling from the matmul tiling API, plus epilogue parameters.
#include "dense_swish_tanh_gelu_clip_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

using namespace matmul_tiling;

namespace optiling {
ge::graphStatus DenseSwishTanhGeluClipTilingFunc(gert::TilingContext *context)
{
    auto xShape = context->GetInputShape(0)->GetStorageShape();   // [M, K]
    auto wShape = context->GetInputShape(1)->GetStorageShape();   // [N, K] (Linear layout)
    int32_t M = xShape.GetDim(0);
    int32_t K = xShape.GetDim(1);
    int32_t N = wShape.GetDim(0);
    if (wShape.GetDim(1) != K) {
        return ge::GRAPH_FAILED;
    }
    const float *lo = context->GetAttrs()->GetFloat(0);
    const float *hi = context->GetAttrs()->GetFloat(1);

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aicNum = ascendcPlatform.GetCoreNumAic();
    bool half = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16;
    DataType inType = half ? DataType::DT_FLOAT16 : DataType::DT_FLOAT;

    MultiCoreMatmulTiling api(ascendcPlatform);
    api.SetDim(aicNum);
    api.SetAType(TPosition::GM, CubeFormat::ND, inType, false);
    api.SetBType(TPosition::GM, CubeFormat::ND, inType, true);
    api.SetCType(TPosition::VECIN, CubeFormat::ND, DataType::DT_FLOAT);
    api.SetBiasType(TPosition::GM, CubeFormat::ND, inType);
    api.SetShape(M, N, K);
    api.SetOrgShape(M, N, K);
    api.SetBias(true);
    api.SetFixSplit(128, 128, -1);   // 128x128 fragments go through the vector epilogue
    api.SetBufferSpace(-1, -1, -1);

    DenseSwishTanhGeluClipTilingData tiling;
    if (api.GetTiling(tiling.mm) == -1) {
        return ge::GRAPH_FAILED;
    }
    tiling.set_m(M);
    tiling.set_n(N);
    tiling.set_k(K);
    tiling.set_clipMin(lo == nullptr ? -1.0f : *lo);
    tiling.set_clipMax(hi == nullptr ? 1.0f : *hi);

    int32_t mBlocks = (M + tiling.mm.get_singleCoreM() - 1) / tiling.mm.get_singleCoreM();
    int32_t nBlocks = (N + tiling.mm.get_singleCoreN() - 1) / tiling.mm.get_singleCoreN();
    context->SetBlockDim(mBlocks * nBlocks);   // counted in cube cores for a mix kernel
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = ascendcPlatform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
