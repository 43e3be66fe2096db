#include "pointwise_conv_affine_act_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static constexpr uint32_t MAX_SPATIAL_TILE = 2048;

static matmul_tiling::DataType ToMmType(ge::DataType dt)
{
    return dt == ge::DT_FLOAT16 ? matmul_tiling::DataType::DT_FLOAT16 : matmul_tiling::DataType::DT_FLOAT;
}

ge::graphStatus PointwiseConvAffineActTiling(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const auto &xs = context->GetInputShape(0)->GetStorageShape();   // [B, Cin, H, W]
    const auto &ws = context->GetInputShape(1)->GetStorageShape();   // [Cout, Cin, 1, 1]
    if (xs.GetDimNum() != 4 || ws.GetDim(1) != xs.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    uint32_t B = xs.GetDim(0);
    uint32_t cin = xs.GetDim(1);
    uint32_t hw = xs.GetDim(2) * xs.GetDim(3);
    uint32_t cout = ws.GetDim(0);
    const int64_t *act = context->GetAttrs()->GetAttrPointer<int64_t>(0);

    PointwiseConvAffineActTilingData td;
    td.set_batch(B);
    td.set_inChannels(cin);
    td.set_outChannels(cout);
    td.set_spatial(hw);
    td.set_activation(act == nullptr ? 0U : static_cast<uint32_t>(*act));

    // Each unit of work is (image, spatial tile): Y[:, tile] = W x X[:, tile].
    uint32_t tile = hw < MAX_SPATIAL_TILE ? hw : MAX_SPATIAL_TILE;
    uint32_t tilesPerImage = (hw + tile - 1) / tile;
    uint32_t total = B * tilesPerImage;
    uint32_t cores = plat.GetCoreNumAic();
    if (cores > total) {
        cores = total;
    }
    td.set_spatialTile(tile);
    td.set_tilesPerImage(tilesPerImage);
    td.set_totalTiles(total);
    td.set_coreNum(cores);

    auto dt = ToMmType(context->GetInputDesc(0)->GetDataType());
    matmul_tiling::MatmulApiTiling mm(plat);
    mm.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt);   // weight [Cout, Cin]
    mm.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt);   // activations [Cin, HW]
    mm.SetCType(matmul_tiling::TPosition::VECIN, matmul_tiling::CubeFormat::ND, dt);
    mm.SetShape(cout, tile, cin);
    mm.SetOrgShape(cout, hw, cin);
    mm.SetBias(false);
    mm.SetBufferSpace(-1, -1, -1);
    if (mm.GetTiling(td.gemm) == -1) {
        return ge::GRAPH_FAILED;
    }

    context->SetBlockDim(cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *wsSize = context->GetWorkspaceSizes(1);
    wsSize[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
