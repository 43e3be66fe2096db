#include "triu_product_matmul_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t MAX_TILE = 256;
}

ge::graphStatus TriuProductMatmulTiling(gert::TilingContext *context)
{
    auto a = context->GetInputShape(0)->GetStorageShape();
    auto b = context->GetInputShape(1)->GetStorageShape();
    if (a.GetDimNum() != 2 || b.GetDimNum() != 2 || a.GetDim(0) != a.GetDim(1) ||
        b.GetDim(0) != a.GetDim(0) || b.GetDim(1) != a.GetDim(0)) {
        return ge::GRAPH_FAILED;   // square matrices of the same order
    }
    uint32_t n = static_cast<uint32_t>(a.GetDim(0));
    uint32_t tile = ((n + 15) / 16) * 16;
    if (tile > MAX_TILE) {
        tile = MAX_TILE;
    }
    uint32_t side = (n + tile - 1) / tile;

    auto dt = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? matmul_tiling::DataType::DT_FLOAT16
                                                                        : matmul_tiling::DataType::DT_FLOAT;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());

    // single-core tiling for the largest tile problem; the kernel shrinks K per tile
    matmul_tiling::MatmulApiTiling mt(plat);
    mt.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt);
    mt.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt);
    mt.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt);
    mt.SetShape(tile, tile, n);
    mt.SetOrgShape(n, n, n);
    mt.SetBias(false);
    mt.SetBufferSpace(-1, -1, -1);

    TriuProductMatmulTilingData td;
    if (mt.GetTiling(td.mm) == -1) {
        return ge::GRAPH_FAILED;
    }

    uint32_t aic = plat.GetCoreNumAic();
    uint32_t tiles = side * side;
    uint32_t blockDim = aic < (tiles + 1) / 2 ? aic : (tiles + 1) / 2;
    if (blockDim == 0) {
        blockDim = 1;
    }
    td.set_n(n);
    td.set_tile(tile);
    td.set_tilesPerSide(side);
    td.set_workers(blockDim * 2);   // two vector cores per cube core

    context->SetBlockDim(blockDim);
    context->SetTilingKey(dt == matmul_tiling::DataType::DT_FLOAT16 ? 1 : 0);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
