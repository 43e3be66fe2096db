#include "where_broadcast_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// UB budget for one tile of x (float). x, y, z are double buffered and two
// mask buffers are single buffered: 2*3 + 2 = 8 tiles must fit in UB.
constexpr uint32_t TILE_BYTES = 16 * 1024;

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    WhereBroadcastCustomTilingData tiling;
    const gert::Shape &condShape = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &xShape = context->GetInputShape(1)->GetStorageShape();

    const int32_t xDims = static_cast<int32_t>(xShape.GetDimNum());
    const int32_t cDims = static_cast<int32_t>(condShape.GetDimNum());
    const int32_t offset = xDims - cDims;  // right-aligned broadcasting

    // Find the last non-broadcast dim of cond; everything after it is the inner run.
    int32_t lastDim = -1;
    for (int32_t i = 0; i < cDims; ++i) {
        if (condShape.GetDim(i) != 1) {
            lastDim = i + offset;
        }
    }
    uint64_t inner = 1;
    for (int32_t i = lastDim + 1; i < xDims; ++i) {
        inner *= static_cast<uint64_t>(xShape.GetDim(i));
    }
    uint64_t total = xShape.GetShapeSize();
    uint32_t condLen = static_cast<uint32_t>(condShape.GetShapeSize());
    if (lastDim < 0) {
        inner = total;
        condLen = 1;
    }
    uint32_t totalRows = static_cast<uint32_t>(total / inner);

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    if (coreNum == 0) {
        coreNum = 1;
    }
    if (coreNum > totalRows) {
        coreNum = totalRows;
    }

    uint32_t rowsPerTile = TILE_BYTES / (static_cast<uint32_t>(inner) * sizeof(float));
    if (rowsPerTile == 0) {
        rowsPerTile = 1;
    }

    tiling.set_innerLen(static_cast<uint32_t>(inner));
    tiling.set_condLen(condLen);
    tiling.set_condAlignLen((condLen + 31) / 32 * 32);
    tiling.set_totalRows(totalRows);
    tiling.set_rowsPerCore(totalRows / coreNum);
    tiling.set_formerNum(totalRows % coreNum);
    tiling.set_rowsPerTile(rowsPerTile);

    context->SetBlockDim(coreNum);
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
    // x and y have the full (broadcast) shape in this op.
    const gert::Shape *xShape = context->GetInputShape(1);
    gert::Shape *zShape = context->GetOutputShape(0);
    *zShape = *xShape;
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(1));
    return ge::GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class WhereBroadcastCustom : public OpDef {
public:
    explicit WhereBroadcastCustom(const char *name) : OpDef(name)
    {
        this->Input("cond")
            .ParamType(REQUIRED)
            .DataType({ge::DT_BOOL})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("z")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(WhereBroadcastCustom);
} // namespace ops
