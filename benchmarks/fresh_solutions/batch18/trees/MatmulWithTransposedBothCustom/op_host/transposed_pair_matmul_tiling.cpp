#include "transposed_pair_matmul_tiling.h"
#include "tiling/platform/platform_ascendc.h"

using namespace matmul_tiling;

namespace optiling {
ge::graphStatus TransposedPairMatmulTilingFunc(gert::TilingContext *context)
{
    auto aShape = context->GetInputShape(0)->GetStorageShape(); // [K, M]
    auto bShape = context->GetInputShape(1)->GetStorageShape(); // [N, K]
    if (aShape.GetDimNum() != 2 || bShape.GetDimNum() != 2) {
        return ge::GRAPH_FAILED;
    }
    int32_t k = static_cast<int32_t>(aShape.GetDim(0));
    int32_t m = static_cast<int32_t>(aShape.GetDim(1));
    int32_t n = static_cast<int32_t>(bShape.GetDim(0));
    if (bShape.GetDim(1) != k) {
        return ge::GRAPH_FAILED;
    }

    bool isHalf = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16;
    DataType inType = isHalf ? DataType::DT_FLOAT16 : DataType::DT_FLOAT;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aiv = plat.GetCoreNumAiv();
    uint32_t aic = plat.GetCoreNumAic();

    MultiCoreMatmulTiling tiler(plat);
    tiler.SetDim(aiv);
    tiler.SetAType(TPosition::GM, CubeFormat::ND, inType, true);  // A is read transposed
    tiler.SetBType(TPosition::GM, CubeFormat::ND, inType, true);  // so is B
    tiler.SetCType(TPosition::GM, CubeFormat::ND, inType);
    tiler.SetShape(m, n, k);
    tiler.SetOrgShape(m, n, k);
    tiler.SetBias(false);
    tiler.SetBufferSpace(-1, -1, -1);

    TransposedPairMatmulTilingData data;
    if (tiler.GetTiling(data.cube) == -1) {
        return ge::GRAPH_FAILED;
    }
    // the tiler may decide to use fewer cores than offered for small problems
    int32_t mBlocks = (m + data.cube.get_singleCoreM() - 1) / data.cube.get_singleCoreM();
    int32_t nBlocks = (n + data.cube.get_singleCoreN() - 1) / data.cube.get_singleCoreN();
    data.set_usedCores(static_cast<uint32_t>(mBlocks * nBlocks));

    context->SetBlockDim(aic);
    context->SetTilingKey(isHalf ? 1 : 0);
    data.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(data.GetDataSize());

    size_t *wsSizes = context->GetWorkspaceSizes(1);
    wsSizes[0] = static_cast<size_t>(plat.GetLibApiWorkSpaceSize());
    return ge::GRAPH_SUCCESS;
}
}
