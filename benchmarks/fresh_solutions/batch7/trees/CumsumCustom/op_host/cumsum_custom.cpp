#include "cumsum_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace optiling {
constexpr uint32_t KEY_LAST_AXIS = 1;
constexpr uint32_t KEY_OUTER_AXIS = 2;

static inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
static inline uint32_t AlignUp(uint32_t a, uint32_t b) { return CeilDiv(a, b) * b; }

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const auto &shape = context->GetInputShape(0)->GetStorageShape();
    int64_t rank = shape.GetDimNum();
    int64_t dim = *context->GetAttrs()->GetAttrPointer<int64_t>(0);
    if (dim < 0) dim += rank;
    if (dim < 0 || dim >= rank) return ge::GRAPH_FAILED;

    uint32_t outer = 1, inner = 1;
    for (int64_t i = 0; i < dim; ++i) outer *= shape.GetDim(i);
    for (int64_t i = dim + 1; i < rank; ++i) inner *= shape.GetDim(i);
    uint32_t scanLen = shape.GetDim(dim);

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();

    CumsumCustomTilingData tiling;
    tiling.set_outer(outer);
    tiling.set_scanLen(scanLen);
    tiling.set_inner(inner);

    uint32_t tileRows, tileCols, totalTasks, colTiles;
    bool lastAxis = (inner == 1);
    if (lastAxis) {
        // a row chunk of tileRows*tileCols elements is scanned as a (tileRows, tileCols)
        // matrix along its last axis; row offsets are stitched afterwards
        tileCols = 128;
        if (scanLen < tileCols) tileCols = AlignUp(scanLen, 8);
        tileRows = CeilDiv(scanLen, tileCols);
        if (tileRows > 64) tileRows = 64;
        colTiles = 1;
        totalTasks = outer;
        context->SetTilingKey(KEY_LAST_AXIS);
    } else {
        // scan along the first axis of (scanLen, inner) slabs, tile by tile
        tileCols = AlignUp(inner, 8);
        if (tileCols > 1024) tileCols = 1024;
        colTiles = CeilDiv(inner, tileCols);
        tileRows = 8192 / tileCols;
        if (tileRows > scanLen) tileRows = scanLen;
        if (tileRows == 0) tileRows = 1;
        totalTasks = outer * colTiles;
        context->SetTilingKey(KEY_OUTER_AXIS);
    }

    std::vector<int64_t> dims = {static_cast<int64_t>(tileRows), static_cast<int64_t>(tileCols)};
    ge::Shape tileShape(dims);
    uint32_t maxTmp = 0, minTmp = 0;
    AscendC::GetCumSumMaxMinTmpSize(tileShape, sizeof(float), lastAxis, false, maxTmp, minTmp);
    uint32_t tmpSize = maxTmp;
    // keep the tmp buffer modest; the min size is always enough for correctness
    uint32_t tileBytes = tileRows * tileCols * sizeof(float);
    if (tmpSize > 2 * tileBytes) tmpSize = 2 * tileBytes;
    if (tmpSize < minTmp) tmpSize = minTmp;

    uint32_t tasksPerCore = CeilDiv(totalTasks, coreNum);
    uint32_t usedCores = CeilDiv(totalTasks, tasksPerCore);

    tiling.set_tileRows(tileRows);
    tiling.set_tileCols(tileCols);
    tiling.set_colTiles(colTiles);
    tiling.set_totalTasks(totalTasks);
    tiling.set_tasksPerCore(tasksPerCore);
    tiling.set_tmpBufSize(tmpSize);

    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class CumsumCustom : public OpDef {
public:
    explicit CumsumCustom(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("dim").Int();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(CumsumCustom);
} // namespace ops
