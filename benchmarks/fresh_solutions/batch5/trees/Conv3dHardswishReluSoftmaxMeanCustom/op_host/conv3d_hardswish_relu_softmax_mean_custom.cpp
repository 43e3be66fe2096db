#include "conv3d_hardswish_relu_softmax_mean_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// 单次 tile 长度（float 个数），UB 中共 6 份这样大小的 buffer，约 96KB
constexpr uint32_t MAX_TILE_LEN = 4096;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    Conv3dHardswishReluSoftmaxMeanCustomTilingData tiling;

    // 输入 x 为卷积输出，形状 (B, C, D, H, W)
    const gert::StorageShape* xShape = context->GetInputShape(0);
    const gert::Shape& shape = xShape->GetStorageShape();
    if (shape.GetDimNum() != 5) {
        return ge::GRAPH_FAILED;
    }
    uint32_t batch = static_cast<uint32_t>(shape.GetDim(0));
    uint32_t channels = static_cast<uint32_t>(shape.GetDim(1));
    uint32_t spatial = static_cast<uint32_t>(shape.GetDim(2) * shape.GetDim(3) * shape.GetDim(4));

    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    const int64_t* groupsPtr = attrs->GetAttrPointer<int64_t>(0);
    const float* epsPtr = attrs->GetAttrPointer<float>(1);
    uint32_t numGroups = groupsPtr == nullptr ? 4 : static_cast<uint32_t>(*groupsPtr);
    float eps = epsPtr == nullptr ? 1e-5f : *epsPtr;
    if (numGroups == 0 || channels % numGroups != 0) {
        return ge::GRAPH_FAILED;
    }

    // tile 长度按 8 个 float（32B）对齐
    uint32_t tileLen = spatial < MAX_TILE_LEN ? ((spatial + 7) / 8 * 8) : MAX_TILE_LEN;

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    uint32_t totalTasks = batch * numGroups;
    uint32_t blockDim = totalTasks < coreNum ? totalTasks : coreNum;
    if (blockDim == 0) {
        blockDim = 1;
    }

    tiling.set_batch(batch);
    tiling.set_channels(channels);
    tiling.set_numGroups(numGroups);
    tiling.set_chPerGroup(channels / numGroups);
    tiling.set_spatial(spatial);
    tiling.set_tileLen(tileLen);
    tiling.set_totalTasks(totalTasks);
    tiling.set_tasksPerCore(totalTasks / blockDim);
    tiling.set_tailTasks(totalTasks % blockDim);
    tiling.set_eps(eps);

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
    // 输出为 (B, C)：空间维度上求均值
    const gert::Shape* xShape = context->GetInputShape(0);
    gert::Shape* yShape = context->GetOutputShape(0);
    yShape->SetDimNum(2);
    yShape->SetDim(0, xShape->GetDim(0));
    yShape->SetDim(1, xShape->GetDim(1));
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class Conv3dHardswishReluSoftmaxMeanCustom : public OpDef {
public:
    explicit Conv3dHardswishReluSoftmaxMeanCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
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
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("num_groups").Int();
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(Conv3dHardswishReluSoftmaxMeanCustom);
}
