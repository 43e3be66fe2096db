#include "min_reduction_over_a_dimension_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_IN_TILE = 2048;
constexpr uint32_t LD_BUF_ELEMS = 12288;   // 48 KB per input buffer
constexpr uint32_t ROW_TILE = 8192;        // key 1 tile along the reduced axis

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    MinReductionOverADimensionCustomTilingData td;

    const auto& shp = context->GetInputShape(0)->GetStorageShape();
    int64_t nd = static_cast<int64_t>(shp.GetDimNum());
    const int64_t* dp = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    int64_t dim = dp ? *dp : 1;
    if (dim < 0) {
        dim += nd;
    }
    if (dim < 0 || dim >= nd) {
        return ge::GRAPH_FAILED;
    }

    uint64_t outer = 1, inner = 1;
    for (int64_t i = 0; i < dim; ++i) {
        outer *= shp.GetDim(i);
    }
    for (int64_t i = dim + 1; i < nd; ++i) {
        inner *= shp.GetDim(i);
    }
    uint32_t red = static_cast<uint32_t>(shp.GetDim(dim));

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t core_num = plat.GetCoreNumAiv();
    if (core_num == 0) {
        core_num = 1;
    }

    uint32_t units;
    if (inner > 1) {
        // reduce across rows: lanes run along the contiguous inner axis
        uint32_t in_tile = inner < MAX_IN_TILE ? static_cast<uint32_t>((inner + 7) / 8 * 8) : MAX_IN_TILE;
        uint32_t slice_num = static_cast<uint32_t>((inner + in_tile - 1) / in_tile);
        uint32_t rows_ld = LD_BUF_ELEMS / in_tile;
        if (rows_ld > red) {
            rows_ld = red;
        }
        if (rows_ld == 0) {
            rows_ld = 1;
        }
        td.set_in_tile(in_tile);
        td.set_slice_num(slice_num);
        td.set_rows_ld(rows_ld);
        units = static_cast<uint32_t>(outer) * slice_num;
        context->SetTilingKey(0);
    } else {
        // reducing the innermost axis: one contiguous row per output element
        uint32_t tile = red < ROW_TILE ? (red + 7) / 8 * 8 : ROW_TILE;
        td.set_in_tile(tile);
        td.set_slice_num(1);
        td.set_rows_ld(1);
        units = static_cast<uint32_t>(outer);
        context->SetTilingKey(1);
    }

    uint32_t blk_num = units < core_num ? units : core_num;
    if (blk_num == 0) {
        blk_num = 1;
    }
    td.set_outer(static_cast<uint32_t>(outer));
    td.set_red(red);
    td.set_inner(static_cast<uint32_t>(inner));
    td.set_unit_per_blk(units / blk_num);
    td.set_unit_rem(units % blk_num);

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
    const gert::Shape* in = context->GetInputShape(0);
    gert::Shape* out = context->GetOutputShape(0);
    const int64_t* dp = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    int64_t nd = static_cast<int64_t>(in->GetDimNum());
    int64_t dim = dp ? *dp : 1;
    if (dim < 0) {
        dim += nd;
    }
    out->SetDimNum(0);
    for (int64_t i = 0; i < nd; ++i) {
        if (i != dim) {
            out->AppendDim(in->GetDim(i));
        }
    }
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class MinReductionOverADimensionCustom : public OpDef {
public:
    explicit MinReductionOverADimensionCustom(const char* name) : OpDef(name)
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

OP_ADD(MinReductionOverADimensionCustom);
}
