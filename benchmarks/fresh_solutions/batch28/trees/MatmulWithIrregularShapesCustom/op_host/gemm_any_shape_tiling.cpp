#include "gemm_any_shape_tiling.h"
#include "tiling/platform/platform_ascendc.h"

using namespace matmul_tiling;

namespace optiling {
ge::graphStatus GemmAnyShapeTiling(gert::TilingContext *context)
{
    auto aDesc = context->GetInputShape(0);
    auto bDesc = context->GetInputShape(1);
    if (aDesc == nullptr || bDesc == nullptr) {
        return ge::GRAPH_FAILED;
    }
    const gert::Shape &a = aDesc->GetStorageShape();
    const gert::Shape &b = bDesc->GetStorageShape();
    if (a.GetDimNum() != 2 || b.GetDimNum() != 2 || a.GetDim(1) != b.GetDim(0)) {
        return ge::GRAPH_FAILED;
    }
    int32_t m = static_cast<int32_t>(a.GetDim(0));
    int32_t k = static_cast<int32_t>(a.GetDim(1));
    int32_t n = static_cast<int32_t>(b.GetDim(1));
    if (m <= 0 || k <= 0 || n <= 0) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aicNum = plat.GetCoreNumAic();
    aicNum = aicNum == 0 ? 1 : aicNum;

    MultiCoreMatmulTiling api(plat);
    api.SetDim(static_cast<int32_t>(aicNum));
    api.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    api.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    api.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    api.SetShape(m, n, k);
    api.SetOrgShape(m, n, k);
    api.SetBias(false);
    api.SetBufferSpace(-1, -1, -1);

    GemmAnyShapeTilingData td;
    if (api.GetTiling(td.mm) == -1) {
        return ge::GRAPH_FAILED;
    }
    int32_t singleM = td.mm.get_singleCoreM();
    int32_t singleN = td.mm.get_singleCoreN();
    if (singleM <= 0 || singleN <= 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t blocksM = static_cast<uint32_t>((m + singleM - 1) / singleM);
    uint32_t blocksN = static_cast<uint32_t>((n + singleN - 1) / singleN);
    td.set_blocksAlongM(blocksM);
    td.set_blocksAlongN(blocksN);

    // One AI Core per output block; the tiling API never returns more blocks than cores.
    uint32_t used = blocksM * blocksN;
    if (used > aicNum) {
        used = aicNum;
    }
    context->SetBlockDim(used);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = static_cast<size_t>(plat.GetLibApiWorkSpaceSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
