#include "conv3d_multiply_instance_norm_clamp_multiply_max_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_MAX = 4096;   // floats per tile
constexpr uint32_t C_MAX = 64;        // per-channel factors live in scalar arrays

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    auto shp = context->GetInputShape(0)->GetStorageShape();   // N, C, D, H, W
    uint32_t n_num = static_cast<uint32_t>(shp.GetDim(0));
    uint32_t c_num = static_cast<uint32_t>(shp.GetDim(1));
    uint32_t sp = static_cast<uint32_t>(shp.GetDim(2) * shp.GetDim(3) * shp.GetDim(4));
    if (c_num > C_MAX) {
        return ge::GRAPH_FAILED;
    }

    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    float lo = *attrs->GetAttrPointer<float>(0);
    float hi = *attrs->GetAttrPointer<float>(1);
    float eps = *attrs->GetAttrPointer<float>(2);

    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t n_per = (n_num + cores - 1) / cores;
    uint32_t blk_num = (n_num + n_per - 1) / n_per;

    uint32_t tile_len = sp < TILE_MAX ? sp : TILE_MAX;
    tile_len = (tile_len + 7) / 8 * 8;
    uint32_t tile_num = (sp + tile_len - 1) / tile_len;
    uint32_t tail_len = sp - (tile_num - 1) * tile_len;

    Conv3dMultiplyInstanceNormClampMultiplyMaxCustomTilingData td;
    td.set_n_num(n_num);
    td.set_c_num(c_num);
    td.set_sp(sp);
    td.set_n_per(n_per);
    td.set_tile_len(tile_len);
    td.set_tile_num(tile_num);
    td.set_tail_len(tail_len);
    td.set_lo(lo);
    td.set_hi(hi);
    td.set_eps(eps);

    context->SetBlockDim(blk_num);
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
    const gert::Shape *in = context->GetInputShape(0);
    gert::Shape *out = context->GetOutputShape(0);
    out->SetDimNum(4);
    out->SetDim(0, in->GetDim(0));
    out->SetDim(1, in->GetDim(2));
    out->SetDim(2, in->GetDim(3));
    out->SetDim(3, in->GetDim(4));
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class Conv3dMultiplyInstanceNormClampMultiplyMaxCustom : public OpDef {
public:
    explicit Conv3dMultiplyInstanceNormClampMultiplyMaxCustom(const char *name) : OpDef(name)
    {
        this->Input("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("multiplier")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("clamp_min").AttrType(OPTIONAL).Float(-1.0f);
        this->Attr("clamp_max").AttrType(OPTIONAL).Float(1.0f);
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(Conv3dMultiplyInstanceNormClampMultiplyMaxCustom);
} // namespace ops
