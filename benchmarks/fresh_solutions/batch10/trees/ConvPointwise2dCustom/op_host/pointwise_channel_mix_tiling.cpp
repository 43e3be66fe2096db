// Host tiling for PointwiseChannelMix.
// A 1x1 convolution over NCHW is, per image, Y[n] = W (Cout x Cin) * X[n] (Cin x HW).
// Work items are (image, column tile) pairs, dealt out round-robin to the cube cores;
// every item is a single-core GEMM of shape Cout x colTile x Cin.
#include "pointwise_channel_mix_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t COL_TILE_MAX = 2048;
constexpr uint32_t COL_TILE_MIN = 256;
constexpr uint32_t ALIGN16 = 16;
}

ge::graphStatus PointwiseChannelMixTilingFunc(gert::TilingContext* context)
{
    const auto& xs = context->GetInputShape(0)->GetStorageShape();
    const auto& ws = context->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 4 || ws.GetDimNum() < 2) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t batch = static_cast<uint32_t>(xs.GetDim(0));
    const uint32_t cin = static_cast<uint32_t>(xs.GetDim(1));
    const uint32_t pixels = static_cast<uint32_t>(xs.GetDim(2) * xs.GetDim(3));
    const uint32_t cout = static_cast<uint32_t>(ws.GetDim(0));
    if (static_cast<uint32_t>(ws.GetDim(1)) != cin) {
        return ge::GRAPH_FAILED;
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t cubeCores = platform.GetCoreNumAic();

    // Prefer wide tiles, but shrink them until every cube core has something to do.
    uint32_t colTile = COL_TILE_MAX;
    while (colTile > COL_TILE_MIN &&
           static_cast<uint64_t>(batch) * ((pixels + colTile - 1) / colTile) < cubeCores) {
        colTile /= 2;
    }
    if (pixels <= colTile) {
        colTile = pixels;
    } else {
        colTile = colTile / ALIGN16 * ALIGN16;
    }
    const uint32_t tilesPerImage = (pixels + colTile - 1) / colTile;
    const uint32_t totalTiles = tilesPerImage * batch;

    const ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    const auto mmType = (dt == ge::DT_FLOAT16) ? matmul_tiling::DataType::DT_FLOAT16
                                               : matmul_tiling::DataType::DT_FLOAT;

    matmul_tiling::MatmulApiTiling gemm(platform);
    gemm.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, mmType);
    gemm.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, mmType);
    gemm.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, mmType);
    gemm.SetOrgShape(cout, pixels, cin);       // leading dims of the full per-image matrices
    gemm.SetShape(cout, colTile, cin);         // one work item
    gemm.SetBias(false);
    gemm.SetBufferSpace(-1, -1, -1);

    PointwiseChannelMixTilingData td;
    if (gemm.GetTiling(td.mm) == -1) {
        return ge::GRAPH_FAILED;
    }
    td.set_batch(batch);
    td.set_cin(cin);
    td.set_cout(cout);
    td.set_pixels(pixels);
    td.set_colTile(colTile);
    td.set_tilesPerImage(tilesPerImage);
    td.set_totalTiles(totalTiles);

    const uint32_t blockDim = totalTiles < cubeCores ? totalTiles : cubeCores;
    context->SetBlockDim(blockDim == 0 ? 1 : blockDim);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    // matmul library needs its system workspace
    size_t* wsSizes = context->GetWorkspaceSizes(1);
    wsSizes[0] = platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
