#include "cumprod_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t GRP_ROWS = 64;     // rows scanned together (vector lanes after transpose)
constexpr uint32_t COL_TILE = 64;     // columns per transposed tile
constexpr uint32_t IN_TILE = 8192;    // inner slice for the strided (inner > 1) case

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    CumprodCustomTilingData td;

    const auto& shp = context->GetInputShape(0)->GetStorageShape();
    int64_t nd = static_cast<int64_t>(shp.GetDimNum());
    const int64_t* dim_ptr = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    int64_t dim = (dim_ptr == nullptr) ? (nd - 1) : *dim_ptr;
    if (dim < 0) {
        dim += nd;
    }
    if (dim < 0 || dim >= nd) {
        return ge::GRAPH_FAILED;
    }

    uint64_t outer = 1;
    uint64_t inner = 1;
    for (int64_t i = 0; i < dim; ++i) {
        outer *= static_cast<uint64_t>(shp.GetDim(i));
    }
    for (int64_t i = dim + 1; i < nd; ++i) {
        inner *= static_cast<uint64_t>(shp.GetDim(i));
    }
    uint32_t scan_len = static_cast<uint32_t>(shp.GetDim(dim));

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t core_num = plat.GetCoreNumAiv();
    if (core_num == 0) {
        core_num = 1;
    }

    uint32_t units = 0;
    td.set_outer(static_cast<uint32_t>(outer));
    td.set_scan_len(scan_len);
    td.set_inner(static_cast<uint32_t>(inner));
    td.set_grp_rows(GRP_ROWS);
    td.set_col_tile(COL_TILE);

    if (inner == 1) {
        // contiguous scan along the last axis
        uint32_t grp_num = static_cast<uint32_t>((outer + GRP_ROWS - 1) / GRP_ROWS);
        td.set_grp_num(grp_num);
        td.set_in_tile(0);
        td.set_slice_num(0);
        units = grp_num;
        context->SetTilingKey(0);
    } else {
        uint32_t in_tile = inner < IN_TILE ? static_cast<uint32_t>((inner + 7) / 8 * 8) : IN_TILE;
        uint32_t slice_num = static_cast<uint32_t>((inner + in_tile - 1) / in_tile);
        td.set_grp_num(0);
        td.set_in_tile(in_tile);
        td.set_slice_num(slice_num);
        units = static_cast<uint32_t>(outer) * slice_num;
        context->SetTilingKey(1);
    }

    uint32_t blk_num = units < core_num ? units : core_num;
    if (blk_num == 0) {
        blk_num = 1;
    }
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
class CumprodCustom : public OpDef {
public:
    explicit CumprodCustom(const char* name) : OpDef(name)
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

OP_ADD(CumprodCustom);
}
