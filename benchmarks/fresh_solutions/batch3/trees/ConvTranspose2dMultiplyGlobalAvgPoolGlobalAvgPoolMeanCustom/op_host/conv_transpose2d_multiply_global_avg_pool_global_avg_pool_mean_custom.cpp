#include "conv_transpose2d_multiply_global_avg_pool_global_avg_pool_mean_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_TILE = 8192;   // 32 KB of fp32 per buffer

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvTranspose2dMultiplyGlobalAvgPoolGlobalAvgPoolMeanCustomTilingData td;

    const gert::StorageShape* y_shape = context->GetInputShape(0);
    const auto& shp = y_shape->GetStorageShape();
    if (shp.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = static_cast<uint32_t>(shp.GetDim(0));
    uint32_t c = static_cast<uint32_t>(shp.GetDim(1));
    uint32_t h = static_cast<uint32_t>(shp.GetDim(2));
    uint32_t w = static_cast<uint32_t>(shp.GetDim(3));

    const float* mult = context->GetAttrs()->GetAttrPointer<float>(0);
    float m = (mult == nullptr) ? 1.0f : *mult;

    uint32_t row_num = n * c;
    uint32_t row_len = h * w;
    uint32_t tile_len = row_len < MAX_TILE ? ((row_len + 7) / 8 * 8) : MAX_TILE;
    uint32_t tile_cnt = row_len / tile_len;
    uint32_t tail_len = row_len - tile_cnt * tile_len;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t core_num = plat.GetCoreNumAiv();
    if (core_num == 0) {
        core_num = 1;
    }
    uint32_t blk_num = row_num < core_num ? row_num : core_num;
    if (blk_num == 0) {
        blk_num = 1;
    }

    td.set_row_num(row_num);
    td.set_row_len(row_len);
    td.set_tile_len(tile_len);
    td.set_tile_cnt(tile_cnt);
    td.set_tail_len(tail_len);
    td.set_rows_per_blk(row_num / blk_num);
    td.set_rows_rem(row_num % blk_num);
    td.set_scale(m / static_cast<float>(row_len));

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
    out->SetDimNum(4);
    out->SetDim(0, in->GetDim(0));
    out->SetDim(1, in->GetDim(1));
    out->SetDim(2, 1);
    out->SetDim(3, 1);
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvTranspose2dMultiplyGlobalAvgPoolGlobalAvgPoolMeanCustom : public OpDef {
public:
    explicit ConvTranspose2dMultiplyGlobalAvgPoolGlobalAvgPoolMeanCustom(const char* name) : OpDef(name)
    {
        this->Input("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("multiplier").AttrType(OPTIONAL).Float(0.5);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);

        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ConvTranspose2dMultiplyGlobalAvgPoolGlobalAvgPoolMeanCustom);
}
