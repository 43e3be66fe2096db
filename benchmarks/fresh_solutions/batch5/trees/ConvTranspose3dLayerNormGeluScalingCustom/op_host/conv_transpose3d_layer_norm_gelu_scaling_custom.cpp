#include "conv_transpose3d_layer_norm_gelu_scaling_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_ROWS = 64;        // <= 255 (vector repeat limit), multiple of 8
constexpr uint32_t MAX_NORM_LEN = 64;     // one vector repeat (256 B) per row

// LayerNorm(normalized_shape = out_channels) is applied to the LAST dim of the
// conv_transpose3d output (W'), followed by GELU and a scalar multiply.
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    ConvTranspose3dLayerNormGeluScalingCustomTilingData tiling;
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &ws = context->GetInputShape(1)->GetStorageShape();

    uint32_t normLen = static_cast<uint32_t>(ws.GetShapeSize());
    uint32_t lastDim = static_cast<uint32_t>(xs.GetDim(xs.GetDimNum() - 1));
    if (normLen != lastDim || normLen > MAX_NORM_LEN || normLen % 8 != 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rows = static_cast<uint32_t>(xs.GetShapeSize() / normLen);

    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    const float *epsPtr = attrs->GetAttrPointer<float>(0);
    const float *scalePtr = attrs->GetAttrPointer<float>(1);

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    if (coreNum == 0) {
        coreNum = 1;
    }
    if (coreNum > rows) {
        coreNum = rows;
    }

    tiling.set_normLen(normLen);
    tiling.set_totalRows(rows);
    tiling.set_rowsPerCore(rows / coreNum);
    tiling.set_rowsRemain(rows % coreNum);
    tiling.set_tileRows(TILE_ROWS);
    tiling.set_eps(epsPtr == nullptr ? 1e-5f : *epsPtr);
    tiling.set_scale(scalePtr == nullptr ? 1.0f : *scalePtr);

    context->SetBlockDim(coreNum);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
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
class ConvTranspose3dLayerNormGeluScalingCustom : public OpDef {
public:
    explicit ConvTranspose3dLayerNormGeluScalingCustom(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
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

OP_ADD(ConvTranspose3dLayerNormGeluScalingCustom);
} // namespace ops
