#include "axis_sum_keepdim_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_COL_TILE = 2048;   // floats
constexpr uint32_t ROWS_PER_LOAD = 8;     // 8 x 2048 x 4B = 64KB per buffer
constexpr uint32_t ROW_CHUNK = 16384;     // floats for the contiguous-row path

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const auto &shape = context->GetInputShape(0)->GetStorageShape();
    const int64_t *dimAttr = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    int64_t rank = static_cast<int64_t>(shape.GetDimNum());
    int64_t dim = *dimAttr;
    if (dim < 0) {
        dim += rank;
    }
    if (dim < 0 || dim >= rank) {
        return ge::GRAPH_FAILED;
    }

    uint64_t outer = 1;
    uint64_t inner = 1;
    for (int64_t i = 0; i < dim; ++i) {
        outer *= shape.GetDim(i);
    }
    for (int64_t i = dim + 1; i < rank; ++i) {
        inner *= shape.GetDim(i);
    }
    uint32_t reduceLen = static_cast<uint32_t>(shape.GetDim(dim));

    AxisSumKeepdimTilingData td;
    td.set_outer(static_cast<uint32_t>(outer));
    td.set_reduceLen(reduceLen);
    td.set_inner(static_cast<uint32_t>(inner));

    uint32_t taskNum = 0;
    if (inner > 1) {
        uint32_t innerAlign = static_cast<uint32_t>((inner + 7) / 8 * 8);
        uint32_t colTile = innerAlign < MAX_COL_TILE ? innerAlign : MAX_COL_TILE;
        uint32_t slices = static_cast<uint32_t>((inner + colTile - 1) / colTile);
        td.set_colTile(colTile);
        td.set_slicesPerRow(slices);
        // narrow slices -> more rows per burst to keep the DMA busy
        uint32_t rows = ROWS_PER_LOAD * (MAX_COL_TILE / colTile);
        td.set_rowsPerLoad(rows);
        td.set_chunkLen(0);
        taskNum = static_cast<uint32_t>(outer) * slices;
        context->SetTilingKey(1);
    } else {
        td.set_colTile(0);
        td.set_slicesPerRow(1);
        td.set_rowsPerLoad(0);
        td.set_chunkLen(ROW_CHUNK);
        taskNum = static_cast<uint32_t>(outer);
        context->SetTilingKey(2);
    }
    td.set_taskNum(taskNum);

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = platform.GetCoreNumAiv();
    uint32_t blockDim = taskNum < cores ? taskNum : cores;
    context->SetBlockDim(blockDim == 0 ? 1 : blockDim);

    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *xs = context->GetInputShape(0);
    gert::Shape *ys = context->GetOutputShape(0);
    int64_t rank = static_cast<int64_t>(xs->GetDimNum());
    int64_t dim = *context->GetAttrs()->GetAttrPointer<int64_t>(0);
    if (dim < 0) {
        dim += rank;
    }
    *ys = *xs;
    ys->SetDim(dim, 1); // keepdim=True
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class AxisSumKeepdimCustom : public OpDef {
public:
    explicit AxisSumKeepdimCustom(const char *name) : OpDef(name)
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

OP_ADD(AxisSumKeepdimCustom);
} // namespace ops
