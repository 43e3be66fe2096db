#include "row_scatter_overwrite_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static constexpr uint32_t COPY_TILE = 16 * 1024;   // floats, 64KB per buffer (x2 for double buffering)
static constexpr uint32_t INDEX_TILE = 2048;       // int64 indices, 16KB

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const auto &selfShape = context->GetInputShape(0)->GetStorageShape();
    const auto &idxShape = context->GetInputShape(1)->GetStorageShape();
    if (selfShape.GetDimNum() < 1) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rows = static_cast<uint32_t>(selfShape.GetDim(0));
    uint64_t total = selfShape.GetShapeSize();
    uint32_t cols = rows == 0 ? 0 : static_cast<uint32_t>(total / rows);
    uint32_t indexNum = static_cast<uint32_t>(idxShape.GetShapeSize());

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = platform.GetCoreNumAiv();
    if (cores == 0) {
        cores = 1;
    }
    if (rows < cores) {
        cores = rows == 0 ? 1 : rows;
    }

    RowScatterOverwriteTilingData tiling;
    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_indexNum(indexNum);
    tiling.set_bandRows(rows / cores);
    tiling.set_bigBands(rows % cores);
    tiling.set_copyTile(COPY_TILE);
    tiling.set_indexTile(INDEX_TILE);

    context->SetBlockDim(cores);
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
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class RowScatterOverwriteCustom : public OpDef {
public:
    explicit RowScatterOverwriteCustom(const char *name) : OpDef(name)
    {
        this->Input("self")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("index")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT64})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("source")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(RowScatterOverwriteCustom);
} // namespace ops
