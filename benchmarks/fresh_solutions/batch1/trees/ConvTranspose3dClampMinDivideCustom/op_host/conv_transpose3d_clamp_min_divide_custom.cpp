#include "conv_transpose3d_clamp_min_divide_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_LEN = 12288;   // 48 KB of float per buffer

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvTranspose3dClampMinDivideCustomTilingData tiling;
    const gert::Shape& shape = context->GetInputShape(0)->GetOriginShape();
    if (shape.GetDimNum() != 5) {
        return ge::GRAPH_FAILED;
    }
    uint64_t total = shape.GetShapeSize();
    uint32_t channels = static_cast<uint32_t>(shape.GetDim(1));
    uint32_t spatial = static_cast<uint32_t>(shape.GetDim(2) * shape.GetDim(3) * shape.GetDim(4));

    float minValue = *context->GetAttrs()->GetAttrPointer<float>(0);
    float divisor = *context->GetAttrs()->GetAttrPointer<float>(1);
    if (divisor == 0.0f) {
        return ge::GRAPH_FAILED;
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aivNum = platform.GetCoreNumAiv();
    if (aivNum == 0) {
        aivNum = 1;
    }
    // even split, rounded up to a 32-byte multiple so core boundaries stay aligned
    uint64_t perCore = (total + aivNum - 1) / aivNum;
    perCore = (perCore + 7) / 8 * 8;
    uint32_t blockDim = static_cast<uint32_t>((total + perCore - 1) / perCore);
    if (blockDim == 0) {
        blockDim = 1;
    }

    tiling.set_totalLength(total);
    tiling.set_coreLength(perCore);
    tiling.set_spatialSize(spatial);
    tiling.set_channels(channels);
    tiling.set_tileLength(TILE_LEN);
    tiling.set_minValue(minValue);
    tiling.set_invDivisor(1.0f / divisor);

    context->SetBlockDim(blockDim);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
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
class ConvTranspose3dClampMinDivideCustom : public OpDef {
public:
    explicit ConvTranspose3dClampMinDivideCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
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
        this->Attr("min_value").Float();
        this->Attr("divisor").Float();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ConvTranspose3dClampMinDivideCustom);
}
