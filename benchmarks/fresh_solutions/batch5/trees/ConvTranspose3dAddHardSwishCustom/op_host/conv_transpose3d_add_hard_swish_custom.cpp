#include "conv_transpose3d_add_hard_swish_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BLOCK_ELEMS = 8;       // 32B 对齐对应的 float 个数
constexpr uint32_t TILE_LENGTH = 6144;    // 2 输入 + 1 输出，双缓冲 + 1 个临时 buffer，约 168KB

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvTranspose3dAddHardSwishCustomTilingData tiling;
    uint64_t totalLength = static_cast<uint64_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    uint64_t addLength = static_cast<uint64_t>(context->GetInputShape(1)->GetStorageShape().GetShapeSize());
    if (totalLength != addLength) {
        // 本算子只处理形状完全一致的相加，广播在 python 侧提前展开
        return ge::GRAPH_FAILED;
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();

    // 以 32B 块为单位在核间均分，余下的块分给前 formerNum 个核
    uint64_t blockCount = (totalLength + BLOCK_ELEMS - 1) / BLOCK_ELEMS;
    uint32_t usedCores = blockCount < coreNum ? static_cast<uint32_t>(blockCount) : coreNum;
    if (usedCores == 0) {
        usedCores = 1;
    }
    uint64_t blocksPerCore = blockCount / usedCores;
    uint32_t formerNum = static_cast<uint32_t>(blockCount % usedCores);

    tiling.set_totalLength(totalLength);
    tiling.set_formerNum(formerNum);
    tiling.set_formerLength((blocksPerCore + 1) * BLOCK_ELEMS);
    tiling.set_tailLength(blocksPerCore * BLOCK_ELEMS);
    tiling.set_tileLength(TILE_LENGTH);

    context->SetBlockDim(usedCores);
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
class ConvTranspose3dAddHardSwishCustom : public OpDef {
public:
    explicit ConvTranspose3dAddHardSwishCustom(const char* name) : OpDef(name)
    {
        this->Input("conv_out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("add_input")
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

OP_ADD(ConvTranspose3dAddHardSwishCustom);
}
