#include "gemm_nt_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

using namespace matmul_tiling;

namespace optiling {
ge::graphStatus GemmNtTilingFunc(gert::TilingContext *context)
{
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape &aShape = context->GetInputShape(0)->GetStorageShape();   // [M, K]
    const gert::Shape &bShape = context->GetInputShape(1)->GetStorageShape();   // [N, K]
    if (aShape.GetDimNum() != 2 || bShape.GetDimNum() != 2 || aShape.GetDim(1) != bShape.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    const int32_t M = static_cast<int32_t>(aShape.GetDim(0));
    const int32_t K = static_cast<int32_t>(aShape.GetDim(1));
    const int32_t N = static_cast<int32_t>(bShape.GetDim(0));

    const bool isHalf = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16;
    const DataType inType = isHalf ? DataType::DT_FLOAT16 : DataType::DT_FLOAT;
    const uint32_t coreNum = ascendcPlatform.GetCoreNumAic();

    MultiCoreMatmulTiling mm(ascendcPlatform);
    mm.SetDim(coreNum);
    mm.SetAType(TPosition::GM, CubeFormat::ND, inType, false);
    mm.SetBType(TPosition::GM, CubeFormat::ND, inType, true);   // B is stored [N, K]
    mm.SetCType(TPosition::GM, CubeFormat::ND, inType);
    mm.SetShape(M, N, K);
    mm.SetOrgShape(M, N, K);
    mm.SetBias(false);
    mm.SetBufferSpace(-1, -1, -1);

    GemmNtTilingData tiling;
    if (mm.GetTiling(tiling.cube) == -1) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t mBlocks = (M + tiling.cube.get_singleCoreM() - 1) / tiling.cube.get_singleCoreM();
    const uint32_t nBlocks = (N + tiling.cube.get_singleCoreN() - 1) / tiling.cube.get_singleCoreN();
    const uint32_t used = mBlocks * nBlocks;
    tiling.set_usedCoreNum(used);

    context->SetTilingKey(isHalf ? 1 : 0);
    context->SetBlockDim(used < coreNum ? used : coreNum);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = ascendcPlatform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}
