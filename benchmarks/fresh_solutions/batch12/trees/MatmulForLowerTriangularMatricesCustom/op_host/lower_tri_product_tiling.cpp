/*
 * Tiling for LowerTriProduct: C = tril(A @ B) for square lower-triangular A and B.
 *
 * The output is cut into tile x tile blocks. Block (bi, bj) with bj > bi is zero. For bj <= bi
 * only k in [bj*tile, (bi+1)*tile) can contribute (A[i,k] = 0 for k > i, B[k,j] = 0 for k < j),
 * so every lower block is a Matmul of a (tile x kLen) strip of A with a (kLen x tile) strip of B.
 * The cube tiling is computed for the largest such call (tile x tile x n); the kernel shrinks it
 * per block with SetSingleShape.
 */
#include "lower_tri_product_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static constexpr uint32_t MAX_TILE = 256;
static constexpr uint32_t BASE = 128;

ge::graphStatus LowerTriProductTilingFunc(gert::TilingContext* ctx)
{
    const gert::Shape& a = ctx->GetInputShape(0)->GetStorageShape();
    const gert::Shape& b = ctx->GetInputShape(1)->GetStorageShape();
    if (a.GetDimNum() != 2 || b.GetDimNum() != 2 || a.GetDim(0) != a.GetDim(1) || b.GetDim(0) != a.GetDim(0) ||
        b.GetDim(1) != a.GetDim(0)) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t n = static_cast<uint32_t>(a.GetDim(0));
    uint32_t tile = (n + 15) / 16 * 16;
    tile = tile > MAX_TILE ? MAX_TILE : tile;
    const uint32_t tilesPerDim = (n + tile - 1) / tile;
    const uint32_t base = tile < BASE ? tile : BASE;

    const bool isHalf = ctx->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16;
    const auto dt = isHalf ? matmul_tiling::DataType::DT_FLOAT16 : matmul_tiling::DataType::DT_FLOAT;

    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    const uint32_t aic = plat.GetCoreNumAic();

    matmul_tiling::MatmulApiTiling api(plat);
    api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt);
    api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt);
    api.SetCType(matmul_tiling::TPosition::VECIN, matmul_tiling::CubeFormat::ND, dt);
    api.SetBias(false);
    api.SetOrgShape(n, n, n);
    api.SetShape(tile, tile, n);
    api.SetFixSplit(base, base, -1);
    api.SetBufferSpace(-1, -1, -1);

    LowerTriProductTilingData td;
    if (api.GetTiling(td.mm) == -1) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t lowerBlocks = tilesPerDim * (tilesPerDim + 1) / 2;
    uint32_t blockDim = aic;
    if (lowerBlocks < 2 * blockDim) {
        blockDim = (lowerBlocks + 1) / 2;
    }
    td.set_n(n);
    td.set_tile(tile);
    td.set_tilesPerDim(tilesPerDim);
    td.set_workers(blockDim * 2);   // AIC:AIV = 1:2

    ctx->SetBlockDim(blockDim);
    ctx->SetTilingKey(isHalf ? 1 : 0);
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());
    ctx->GetWorkspaceSizes(1)[0] = static_cast<size_t>(plat.GetLibApiWorkSpaceSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
