#include "linear_ceiling_offset_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

static matmul_tiling::DataType ToMmType(ge::DataType dt)
{
    return dt == ge::DT_FLOAT16 ? matmul_tiling::DataType::DT_FLOAT16 : matmul_tiling::DataType::DT_FLOAT;
}

ge::graphStatus LinearCeilingOffsetTilingFunc(gert::TilingContext *context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    auto x = context->GetInputShape(0)->GetStorageShape();
    auto w = context->GetInputShape(1)->GetStorageShape();
    const int32_t M = static_cast<int32_t>(x.GetDim(0));
    const int32_t K = static_cast<int32_t>(x.GetDim(1));
    const int32_t N = static_cast<int32_t>(w.GetDim(0));
    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    auto mmType = ToMmType(dt);

    matmul_tiling::MultiCoreMatmulTiling gemm(platform);
    gemm.SetDim(platform.GetCoreNumAic());
    gemm.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, mmType);
    gemm.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, mmType, true);
    gemm.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, mmType);
    gemm.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, mmType);
    gemm.SetShape(M, N, K);
    gemm.SetOrgShape(M, N, K);
    gemm.SetBias(true);
    gemm.SetBufferSpace(-1, -1, -1);

    LinearCeilingOffsetTilingData data;
    if (gemm.GetTiling(data.gemm) == -1) {
        return ge::GRAPH_FAILED;
    }
    uint32_t singleN = static_cast<uint32_t>(data.gemm.get_singleCoreN());
    uint32_t vec = singleN > 8192 ? 8192 : singleN;
    vec = (vec + 15) / 16 * 16;
    data.set_outCols(static_cast<uint32_t>(N));
    data.set_vecLen(vec);

    context->SetBlockDim(data.gemm.get_usedCoreNum());
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 2 : 1);
    data.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(data.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
