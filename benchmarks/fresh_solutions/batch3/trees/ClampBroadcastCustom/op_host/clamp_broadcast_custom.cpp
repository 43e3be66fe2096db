#include "clamp_broadcast_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_COL_TILE = 4096;
constexpr uint32_t X_BUF_ELEMS = 6144;   // 24 KB per x / y buffer

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ClampBroadcastCustomTilingData td;
    const auto& shp = context->GetInputShape(0)->GetStorageShape();
    size_t nd = shp.GetDimNum();
    uint32_t cols = static_cast<uint32_t>(shp.GetDim(nd - 1));
    uint32_t rows = static_cast<uint32_t>(shp.GetShapeSize() / (cols == 0 ? 1 : cols));

    uint32_t col_tile = cols < MAX_COL_TILE ? (cols + 7) / 8 * 8 : MAX_COL_TILE;
    uint32_t rows_ld = X_BUF_ELEMS / col_tile;
    if (rows_ld == 0) {
        rows_ld = 1;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t core_num = plat.GetCoreNumAiv();
    if (core_num == 0) {
        core_num = 1;
    }
    uint32_t blk_num = rows < core_num ? rows : core_num;
    if (blk_num == 0) {
        blk_num = 1;
    }

    td.set_rows(rows);
    td.set_cols(cols);
    td.set_col_tile(col_tile);
    td.set_rows_ld(rows_ld);
    td.set_rows_per_blk(rows / blk_num);
    td.set_rows_rem(rows % blk_num);

    context->SetBlockDim(blk_num);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ClampBroadcastCustom : public OpDef {
public:
    explicit ClampBroadcastCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("min_val")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("max_val")
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

OP_ADD(ClampBroadcastCustom);
}
