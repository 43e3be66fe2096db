#include "linear_double_mish_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// UB holds, per base block: matmul result (x2 queue depth), output (x2), two temporaries.
// 128 x 64 floats = 32 KB per block keeps that under the UB size.
static constexpr int32_t BASE_M = 128;
static constexpr int32_t BASE_N = 64;

ge::graphStatus LinearDoubleMishTilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aic = plat.GetCoreNumAic();
    uint32_t aiv = plat.GetCoreNumAiv();

    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &ws = context->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 2 || ws.GetDimNum() != 2 || xs.GetDim(1) != ws.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    int32_t M = static_cast<int32_t>(xs.GetDim(0));
    int32_t K = static_cast<int32_t>(xs.GetDim(1));
    int32_t N = static_cast<int32_t>(ws.GetDim(0));

    matmul_tiling::MultiCoreMatmulTiling mt(plat);
    mt.SetDim(aiv);  // every vector core drives its own output block
    mt.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT,
                true);
    mt.SetCType(matmul_tiling::TPosition::VECIN, matmul_tiling::CubeFormat::ND,
                matmul_tiling::DataType::DT_FLOAT);
    mt.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                   matmul_tiling::DataType::DT_FLOAT);
    mt.SetShape(M, N, K);
    mt.SetOrgShape(M, N, K);
    mt.SetBias(true);
    mt.SetFixSplit(BASE_M, BASE_N, -1);
    mt.SetBufferSpace(-1, -1, -1);

    LinearDoubleMishTilingData td;
    if (mt.GetTiling(td.gemm) == -1) {
        return ge::GRAPH_FAILED;
    }
    td.set_expClamp(20.0f);

    context->SetBlockDim(aic);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
