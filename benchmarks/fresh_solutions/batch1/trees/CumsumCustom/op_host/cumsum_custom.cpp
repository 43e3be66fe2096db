#include "cumsum_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// 32 rows x 128 columns = 4096 floats = 16 KB per tile
const uint32_t GROUP_ROWS = 32;
const uint32_t TILE_COLS = 128;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    CumsumCustomTilingData tiling;
    auto shape = context->GetInputShape(0)->GetOriginShape();
    size_t dimNum = shape.GetDimNum();
    if (dimNum == 0) {
        return ge::GRAPH_FAILED;
    }
    // the binding always moves the scan dimension to the end
    uint32_t cols = static_cast<uint32_t>(shape.GetDim(dimNum - 1));
    uint32_t rows = 1;
    for (size_t i = 0; i + 1 < dimNum; ++i) {
        rows *= static_cast<uint32_t>(shape.GetDim(i));
    }

    uint32_t groups = (rows + GROUP_ROWS - 1) / GROUP_ROWS;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint32_t blockDim = groups < coreNum ? groups : coreNum;
    if (blockDim == 0) {
        blockDim = 1;
    }

    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_groupRows(GROUP_ROWS);
    tiling.set_tileCols(TILE_COLS);
    tiling.set_groupCount(groups);
    tiling.set_groupsPerCore(groups / blockDim);
    tiling.set_groupsRemain(groups % blockDim);
    tiling.set_colTiles((cols + TILE_COLS - 1) / TILE_COLS);

    context->SetBlockDim(blockDim);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xShape = context->GetInputShape(0);
    gert::Shape* yShape = context->GetOutputShape(0);
    *yShape = *xShape;
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class CumsumCustom : public OpDef {
public:
    explicit CumsumCustom(const char* name) : OpDef(name)
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

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(CumsumCustom);
}
