#include "add_bias_four_dim_broadcast_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// in + out queues, double buffered: 4 * 8192 * 4B = 128 KB of UB
const uint32_t TILE_ELEMS = 8192;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    AddBiasFourDimBroadcastCustomTilingData tiling;
    auto xShape = context->GetInputShape(0)->GetOriginShape();
    if (xShape.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = xShape.GetDim(0);
    uint32_t c = xShape.GetDim(1);
    uint32_t hw = xShape.GetDim(2) * xShape.GetDim(3);
    uint32_t planes = n * c;

    uint32_t planesPerTile = 1;
    uint32_t chunk = TILE_ELEMS;
    if (hw % 8 == 0 && hw <= TILE_ELEMS) {
        // several whole planes per DMA; each plane start stays 32-byte aligned in UB
        planesPerTile = TILE_ELEMS / hw;
        chunk = hw;
    } else if (hw < TILE_ELEMS) {
        chunk = hw;
    }

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    uint32_t blockDim = planes < coreNum ? planes : coreNum;
    if (blockDim == 0) {
        blockDim = 1;
    }

    tiling.set_channels(c);
    tiling.set_planeSize(hw);
    tiling.set_planeCount(planes);
    tiling.set_planesPerTile(planesPerTile);
    tiling.set_chunkLength(chunk);
    tiling.set_basePlanes(planes / blockDim);
    tiling.set_extraPlanes(planes % blockDim);

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
    const gert::Shape* x1_shape = context->GetInputShape(0);
    gert::Shape* y_shape = context->GetOutputShape(0);
    *y_shape = *x1_shape;
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    const auto inputDataType = context->GetInputDataType(0);
    context->SetOutputDataType(0, inputDataType);
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class AddBiasFourDimBroadcastCustom : public OpDef {
public:
    explicit AddBiasFourDimBroadcastCustom(const char* name) : OpDef(name)
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

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(AddBiasFourDimBroadcastCustom);
}
