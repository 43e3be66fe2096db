#include "dense_bias_rectify_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

static ge::graphStatus DenseBiasRectifyTilingFunc(gert::TilingContext *context)
{
    const gert::Shape &xShape = context->GetInputShape(0)->GetStorageShape();  // [M, K]
    const gert::Shape &wShape = context->GetInputShape(1)->GetStorageShape();  // [N, K]
    if (xShape.GetDimNum() != 2 || wShape.GetDimNum() != 2 || xShape.GetDim(1) != wShape.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    int32_t M = static_cast<int32_t>(xShape.GetDim(0));
    int32_t K = static_cast<int32_t>(xShape.GetDim(1));
    int32_t N = static_cast<int32_t>(wShape.GetDim(0));

    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    auto mmType = dt == ge::DT_FLOAT16 ? matmul_tiling::DataType::DT_FLOAT16 : matmul_tiling::DataType::DT_FLOAT;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    int32_t aiv = static_cast<int32_t>(plat.GetCoreNumAiv());

    matmul_tiling::MultiCoreMatmulTiling tiler(plat);
    tiler.SetDim(aiv);
    tiler.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, mmType, false);
    tiler.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, mmType, true);  // Linear weight
    tiler.SetCType(matmul_tiling::TPosition::VECIN, matmul_tiling::CubeFormat::ND, mmType);   // into UB for ReLU
    tiler.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, mmType);
    tiler.SetShape(M, N, K);
    tiler.SetOrgShape(M, N, K);
    tiler.SetBias(true);
    tiler.SetFixSplit(128, 128, -1);  // 128x128 C blocks are what the vector epilogue consumes
    tiler.SetBufferSpace(-1, -1, -1);

    DenseBiasRectifyTilingData td;
    if (tiler.GetTiling(td.cube) == -1) {
        return ge::GRAPH_FAILED;
    }
    td.set_rows(M);
    td.set_cols(N);
    td.set_depth(K);
    td.set_workers(aiv);

    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 1 : 0);
    context->SetBlockDim(plat.GetCoreNumAic());
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ops {
ge::graphStatus DenseBiasRectifyTiling(gert::TilingContext *context)
{
    return optiling::DenseBiasRectifyTilingFunc(context);
}
}
