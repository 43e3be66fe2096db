#include "conv2d_mish_mish_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_LENGTH = 4096;   // floats per UB buffer (16KB)
constexpr uint32_t ALIGN_ELEMS = 8;      // 32 bytes of float

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    Conv2dMishMishCustomTilingData tiling;
    uint64_t total = context->GetInputShape(0)->GetOriginShape().GetShapeSize();

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();

    // split in 32B blocks so every core starts on an aligned address
    uint64_t blocks = (total + ALIGN_ELEMS - 1) / ALIGN_ELEMS;
    uint32_t used = blocks < cores ? static_cast<uint32_t>(blocks) : cores;
    if (used == 0) {
        used = 1;
    }
    uint64_t base = blocks / used;
    uint32_t formerNum = static_cast<uint32_t>(blocks % used);   // these get one extra block
    uint64_t formerLen = (base + 1) * ALIGN_ELEMS;
    uint64_t tailLen = base * ALIGN_ELEMS;

    tiling.set_totalLength(total);
    tiling.set_formerLength(formerLen);
    tiling.set_tailLength(tailLen);
    tiling.set_formerNum(formerNum);
    tiling.set_tileLength(TILE_LENGTH);

    context->SetBlockDim(used);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
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
class Conv2dMishMishCustom : public OpDef {
public:
    explicit Conv2dMishMishCustom(const char* name) : OpDef(name)
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
OP_ADD(Conv2dMishMishCustom);
}
