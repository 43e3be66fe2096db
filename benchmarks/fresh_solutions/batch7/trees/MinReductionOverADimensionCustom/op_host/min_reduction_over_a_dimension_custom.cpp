#include "min_reduction_over_a_dimension_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILING_KEY_STRIDED = 1;   // reduce axis is not the last one
constexpr uint32_t TILING_KEY_LASTAXIS = 2;  // reduce along contiguous memory
constexpr uint32_t MAX_INNER_TILE = 2048;
constexpr uint32_t LAST_AXIS_CHUNK = 8192;
constexpr uint32_t FLOATS_PER_REPEAT = 64;

static inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
static inline uint32_t AlignUp(uint32_t a, uint32_t b) { return CeilDiv(a, b) * b; }

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const auto &shape = context->GetInputShape(0)->GetStorageShape();
    int64_t rank = static_cast<int64_t>(shape.GetDimNum());
    int64_t dim = *context->GetAttrs()->GetAttrPointer<int64_t>(0);
    if (dim < 0) {
        dim += rank;
    }
    if (dim < 0 || dim >= rank) {
        return ge::GRAPH_FAILED;
    }

    uint32_t outer = 1, inner = 1;
    for (int64_t i = 0; i < dim; ++i) outer *= shape.GetDim(i);
    for (int64_t i = dim + 1; i < rank; ++i) inner *= shape.GetDim(i);
    uint32_t reduceLen = shape.GetDim(dim);

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    MinReductionOverADimensionCustomTilingData tiling;
    tiling.set_outer(outer);
    tiling.set_reduceLen(reduceLen);
    tiling.set_inner(inner);

    uint32_t totalTasks;
    if (inner > 1) {
        uint32_t innerTile = AlignUp(inner, 8);
        if (innerTile > MAX_INNER_TILE) innerTile = MAX_INNER_TILE;
        uint32_t innerTiles = CeilDiv(inner, innerTile);
        // double-buffered (rowTile x innerTile) input + accumulator + output
        uint64_t budget = ubSize - 2ULL * innerTile * sizeof(float) - 4096;
        uint32_t rowTile = static_cast<uint32_t>(budget / (2ULL * innerTile * sizeof(float)));
        if (rowTile > reduceLen) rowTile = reduceLen;
        if (rowTile > 64) rowTile = 64;
        if (rowTile == 0) rowTile = 1;
        totalTasks = outer * innerTiles;
        tiling.set_innerTile(innerTile);
        tiling.set_innerTiles(innerTiles);
        tiling.set_rowTile(rowTile);
        tiling.set_workSize(0);
        context->SetTilingKey(TILING_KEY_STRIDED);
    } else {
        // each task is one full row; rows streamed in chunks
        uint32_t chunk = AlignUp(reduceLen, 8);
        if (chunk > LAST_AXIS_CHUNK) chunk = LAST_AXIS_CHUNK;
        // ReduceMin work area: one value per first-level repeat, rounded to a block
        uint32_t firstRepeats = CeilDiv(chunk, FLOATS_PER_REPEAT);
        uint32_t workSize = AlignUp(firstRepeats, 8) + 8;
        totalTasks = outer;
        tiling.set_innerTile(chunk);
        tiling.set_innerTiles(1);
        tiling.set_rowTile(1);
        tiling.set_workSize(workSize);
        context->SetTilingKey(TILING_KEY_LASTAXIS);
    }
    uint32_t tasksPerCore = CeilDiv(totalTasks, coreNum);
    uint32_t usedCores = CeilDiv(totalTasks, tasksPerCore);
    tiling.set_totalTasks(totalTasks);
    tiling.set_tasksPerCore(tasksPerCore);

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
    const gert::Shape *xShape = context->GetInputShape(0);
    int64_t rank = xShape->GetDimNum();
    int64_t dim = *context->GetAttrs()->GetAttrPointer<int64_t>(0);
    if (dim < 0) {
        dim += rank;
    }
    gert::Shape *yShape = context->GetOutputShape(0);
    yShape->SetDimNum(rank - 1);
    int64_t j = 0;
    for (int64_t i = 0; i < rank; ++i) {
        if (i == dim) continue;
        yShape->SetDim(j++, xShape->GetDim(i));
    }
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class MinReductionOverADimensionCustom : public OpDef {
public:
    explicit MinReductionOverADimensionCustom(const char *name) : OpDef(name)
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

OP_ADD(MinReductionOverADimensionCustom);
} // namespace ops
