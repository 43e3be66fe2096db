// Host tiling of TensorMatProduct.
// x[..., L] is flattened to a row-major [M, L] matrix (M = product of leading axes), so
// the whole op is a single GEMM  y[M, K] = x[M, L] @ w[L, K]  split over the cube cores.
#include "tensor_mat_product_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus TensorMatProductTiling(gert::TilingContext *ctx)
{
    auto soc = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    const gert::Shape &xs = ctx->GetInputShape(0)->GetStorageShape();
    const gert::Shape &ws = ctx->GetInputShape(1)->GetStorageShape();
    size_t rank = xs.GetDimNum();
    if (rank < 2 || ws.GetDimNum() != 2 || xs.GetDim(rank - 1) != ws.GetDim(0)) {
        return ge::GRAPH_FAILED;
    }
    int64_t m = 1;
    for (size_t i = 0; i + 1 < rank; ++i) {
        m *= xs.GetDim(i);
    }
    int64_t l = ws.GetDim(0);
    int64_t k = ws.GetDim(1);

    auto dtype = (ctx->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16) ? matmul_tiling::DataType::DT_FLOAT16
                                                                          : matmul_tiling::DataType::DT_FLOAT;
    uint32_t cubeCores = soc.GetCoreNumAic();
    matmul_tiling::MultiCoreMatmulTiling gemmTiling(soc);
    gemmTiling.SetDim(cubeCores);
    gemmTiling.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dtype);
    gemmTiling.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dtype);
    gemmTiling.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dtype);
    gemmTiling.SetShape(m, k, l);
    gemmTiling.SetOrgShape(m, k, l);
    gemmTiling.SetBias(false);
    gemmTiling.SetBufferSpace(-1, -1, -1);

    TensorMatProductTilingData data;
    if (gemmTiling.GetTiling(data.gemm) == -1) {
        return ge::GRAPH_FAILED;
    }
    uint32_t sm = data.gemm.get_singleCoreM();
    uint32_t sn = data.gemm.get_singleCoreN();
    uint32_t mb = static_cast<uint32_t>((m + sm - 1) / sm);
    uint32_t nb = static_cast<uint32_t>((k + sn - 1) / sn);
    data.set_rowsTotal(static_cast<uint32_t>(m));
    data.set_mBlocks(mb);
    data.set_nBlocks(nb);

    uint32_t blocks = mb * nb;
    ctx->SetBlockDim(blocks < cubeCores ? blocks : cubeCores);
    data.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(data.GetDataSize());
    size_t *wsSizes = ctx->GetWorkspaceSizes(1);
    wsSizes[0] = soc.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
