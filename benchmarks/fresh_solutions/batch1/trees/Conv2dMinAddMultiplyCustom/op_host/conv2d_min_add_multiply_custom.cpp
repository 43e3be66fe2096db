#include "conv2d_min_add_multiply_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_LENGTH = 8192;   // floats per UB tile (32 KB)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    Conv2dMinAddMultiplyCustomTilingData tiling;
    const auto& shape = context->GetInputShape(0)->GetOriginShape();
    if (shape.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = static_cast<uint32_t>(shape.GetDim(0));
    uint32_t c = static_cast<uint32_t>(shape.GetDim(1));
    uint32_t hw = static_cast<uint32_t>(shape.GetDim(2) * shape.GetDim(3));
    uint32_t planes = n * c;

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    uint32_t blockDim = planes < coreNum ? planes : coreNum;
    if (blockDim == 0) {
        blockDim = 1;
    }

    const float* cv = context->GetAttrs()->GetAttrPointer<float>(0);
    const float* sf = context->GetAttrs()->GetAttrPointer<float>(1);

    uint32_t tile = hw < TILE_LENGTH ? (hw + 7) / 8 * 8 : TILE_LENGTH;

    tiling.set_channels(c);
    tiling.set_planeCount(planes);
    tiling.set_planeSize(hw);
    tiling.set_planesPerCore(planes / blockDim);
    tiling.set_extraPlanes(planes % blockDim);
    tiling.set_tileLength(tile);
    tiling.set_constantValue(*cv);
    tiling.set_scalingFactor(*sf);

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
class Conv2dMinAddMultiplyCustom : public OpDef {
public:
    explicit Conv2dMinAddMultiplyCustom(const char* name) : OpDef(name)
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
        this->Attr("constant_value").Float();
        this->Attr("scaling_factor").Float();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(Conv2dMinAddMultiplyCustom);
}
