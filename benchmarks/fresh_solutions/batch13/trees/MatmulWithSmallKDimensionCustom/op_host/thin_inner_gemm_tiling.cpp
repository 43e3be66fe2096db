#include "thin_inner_gemm_tiling.h"
#include "tiling/platform/platform_ascendc.h"

using namespace matmul_tiling;

namespace optiling {

static DataType ToMmType(ge::DataType dt)
{
    return dt == ge::DT_FLOAT16 ? DataType::DT_FLOAT16 : DataType::DT_FLOAT;
}

ge::graphStatus ThinInnerGemmTiling(gert::TilingContext *context)
{
    auto ascendc = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());

    const gert::Shape &aShape = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &bShape = context->GetInputShape(1)->GetStorageShape();
    if (aShape.GetDimNum() != 2 || bShape.GetDimNum() != 2 || aShape.GetDim(1) != bShape.GetDim(0)) {
        return ge::GRAPH_FAILED;
    }
    const int32_t m = static_cast<int32_t>(aShape.GetDim(0));
    const int32_t k = static_cast<int32_t>(aShape.GetDim(1));
    const int32_t n = static_cast<int32_t>(bShape.GetDim(1));

    const DataType inType = ToMmType(context->GetInputDesc(0)->GetDataType());
    const DataType outType = ToMmType(context->GetOutputDesc(0)->GetDataType());

    // With a tiny K the kernel is bound by writing C, so every cube core gets an output block.
    const uint32_t aicNum = ascendc.GetCoreNumAic();
    MultiCoreMatmulTiling mt(ascendc);
    mt.SetDim(aicNum);
    mt.SetAType(TPosition::GM, CubeFormat::ND, inType, false);
    mt.SetBType(TPosition::GM, CubeFormat::ND, inType, false);
    mt.SetCType(TPosition::GM, CubeFormat::ND, outType);
    mt.SetShape(m, n, k);
    mt.SetOrgShape(m, n, k);
    mt.EnableBias(false);
    mt.SetBufferSpace(-1, -1, -1);

    ThinInnerGemmTilingData tiling;
    if (mt.GetTiling(tiling.mmTiling) == -1) {
        return ge::GRAPH_FAILED;
    }
    // usedCoreNum is filled in by the tiling library once the per-core split is fixed
    const uint32_t used = tiling.mmTiling.get_usedCoreNum();
    tiling.set_usedCores(used);

    context->SetBlockDim(used);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    // the Matmul high-level API needs its system workspace
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = ascendc.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
