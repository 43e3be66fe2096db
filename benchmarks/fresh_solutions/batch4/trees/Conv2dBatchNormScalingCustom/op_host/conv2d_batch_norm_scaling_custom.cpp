#include "conv2d_batch_norm_scaling_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_TILE = 8192;   // floats; 4 such buffers + accumulators fit in UB

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    auto shp = context->GetInputShape(0)->GetStorageShape();   // N, C, H, W
    uint32_t n_num = static_cast<uint32_t>(shp.GetDim(0));
    uint32_t c_num = static_cast<uint32_t>(shp.GetDim(1));
    uint32_t hw = static_cast<uint32_t>(shp.GetDim(2) * shp.GetDim(3));

    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    float eps = *attrs->GetAttrPointer<float>(0);
    float scale = *attrs->GetAttrPointer<float>(1);

    // channels are independent -> one or more whole channels per core
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t used = c_num < cores ? c_num : cores;
    uint32_t c_per = (c_num + used - 1) / used;
    used = (c_num + c_per - 1) / c_per;

    uint32_t tile_len = hw < MAX_TILE ? hw : MAX_TILE;
    tile_len = (tile_len + 7) / 8 * 8;   // 32 B aligned buffers
    uint32_t tile_num = (hw + tile_len - 1) / tile_len;
    uint32_t tail_len = hw - (tile_num - 1) * tile_len;

    Conv2dBatchNormScalingCustomTilingData tiling;
    tiling.set_n_num(n_num);
    tiling.set_c_num(c_num);
    tiling.set_hw(hw);
    tiling.set_c_per(c_per);
    tiling.set_tile_len(tile_len);
    tiling.set_tile_num(tile_num);
    tiling.set_tail_len(tail_len);
    tiling.set_eps(eps);
    tiling.set_scale(scale);

    context->SetBlockDim(used);
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
    return ge::GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class Conv2dBatchNormScalingCustom : public OpDef {
public:
    explicit Conv2dBatchNormScalingCustom(const char *name) : OpDef(name)
    {
        this->Input("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("gamma")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("beta")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5f);
        this->Attr("scaling_factor").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);

        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(Conv2dBatchNormScalingCustom);
} // namespace ops
