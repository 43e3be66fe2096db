#include "triu_product_matmul_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

using namespace matmul_tiling;

namespace optiling {
constexpr uint32_t TILE_EDGE = 128;

ge::graphStatus TriuProductMatmulTiling(gert::TilingContext *context)
{
    const gert::Shape &aShape = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &bShape = context->GetInputShape(1)->GetStorageShape();
    if (aShape.GetDimNum() != 2 || aShape.GetDim(0) != aShape.GetDim(1) || bShape.GetDim(0) != aShape.GetDim(0) ||
        bShape.GetDim(1) != aShape.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    const int32_t n = static_cast<int32_t>(aShape.GetDim(0));

    DataType dt = DataType::DT_FLOAT;
    if (context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16) {
        dt = DataType::DT_FLOAT16;
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    // every vector core drives its own tile; the tiling describes one tile with the
    // full K range, the real K extent is narrowed per tile with SetSingleShape
    MatmulApiTiling mmTiling(platform);
    mmTiling.SetAType(TPosition::GM, CubeFormat::ND, dt, false);
    mmTiling.SetBType(TPosition::GM, CubeFormat::ND, dt, false);
    mmTiling.SetCType(TPosition::VECIN, CubeFormat::ND, dt);
    mmTiling.SetBias(false);
    const int32_t edge = n < static_cast<int32_t>(TILE_EDGE) ? n : static_cast<int32_t>(TILE_EDGE);
    mmTiling.SetShape(edge, edge, n);
    mmTiling.SetOrgShape(n, n, n);
    mmTiling.SetFixSplit(edge, edge, -1);
    mmTiling.SetBufferSpace(-1, -1, -1);

    TriuProductMatmulTilingData td;
    if (mmTiling.GetTiling(td.cubeTiling) == -1) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t rows = (static_cast<uint32_t>(n) + edge - 1) / edge;
    td.set_dim(n);
    td.set_tile(edge);
    td.set_tileRows(rows);
    td.set_upperTiles(rows * (rows + 1) / 2);
    td.set_lowerTiles(rows * (rows - 1) / 2);

    const uint32_t aicNum = platform.GetCoreNumAic();
    const uint32_t want = td.get_upperTiles();
    context->SetBlockDim(want < aicNum ? want : aicNum);

    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
