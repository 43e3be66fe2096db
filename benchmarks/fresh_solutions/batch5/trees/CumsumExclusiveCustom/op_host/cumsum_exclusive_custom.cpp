#include "cumsum_exclusive_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_LEN = 2048;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    CumsumExclusiveCustomTilingData td;
    auto shape = context->GetInputShape(0)->GetStorageShape();
    int64_t rank = shape.GetDimNum();
    int64_t dim = *(context->GetAttrs()->GetInt(0));
    if (dim < 0) dim += rank;
    if (dim != rank - 1) {
        return ge::GRAPH_FAILED;   // only innermost-axis scan handled
    }
    uint32_t scanLen = shape.GetDim(dim);
    uint32_t totalRows = shape.GetShapeSize() / scanLen;
    if (scanLen % 8 != 0) {
        return ge::GRAPH_FAILED;
    }

    uint32_t coreNum = platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCoreNumAiv();
    uint32_t used = totalRows < coreNum ? totalRows : coreNum;
    uint32_t smallRows = totalRows / used;
    uint32_t bigNum = totalRows % used;

    uint32_t tileLen = scanLen < TILE_LEN ? scanLen : TILE_LEN;
    uint32_t tileNum = (scanLen + tileLen - 1) / tileLen;

    td.set_totalRows(totalRows);
    td.set_scanLen(scanLen);
    td.set_bigCoreRows(smallRows + 1);
    td.set_bigCoreNum(bigNum);
    td.set_tileLength(tileLen);
    td.set_tileNum(tileNum);
    td.set_lastTileLength(scanLen - (tileNum - 1) * tileLen);

    context->SetBlockDim(used);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
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
class CumsumExclusiveCustom : public OpDef {
public:
    explicit CumsumExclusiveCustom(const char* name) : OpDef(name)
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
        this->Attr("dim").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(CumsumExclusiveCustom);
}
