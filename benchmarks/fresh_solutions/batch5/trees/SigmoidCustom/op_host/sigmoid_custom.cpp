#include "sigmoid_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_LENGTH = 8192;   // 32KB/块，双缓冲下 in/out/tmp 共约 160KB 以内
constexpr uint32_t ALIGN_ELEM = 8;       // 32B / sizeof(float)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    SigmoidCustomTilingData tiling;
    uint64_t totalLength = static_cast<uint64_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize());

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();

    // 每核处理的长度向上对齐到 8 个元素，最后一个核处理剩余部分
    uint64_t perCore = (totalLength + coreNum - 1) / coreNum;
    perCore = (perCore + ALIGN_ELEM - 1) / ALIGN_ELEM * ALIGN_ELEM;
    if (perCore == 0) {
        perCore = ALIGN_ELEM;
    }
    uint32_t blockDim = static_cast<uint32_t>((totalLength + perCore - 1) / perCore);
    if (blockDim == 0) {
        blockDim = 1;
    }

    tiling.set_totalLength(totalLength);
    tiling.set_perCoreLength(perCore);
    tiling.set_tileLength(TILE_LENGTH);
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
class SigmoidCustom : public OpDef {
public:
    explicit SigmoidCustom(const char* name) : OpDef(name)
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

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(SigmoidCustom);
}
