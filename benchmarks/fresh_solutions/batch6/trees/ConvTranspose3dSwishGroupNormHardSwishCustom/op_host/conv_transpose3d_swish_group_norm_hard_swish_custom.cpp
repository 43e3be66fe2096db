#include "conv_transpose3d_swish_group_norm_hard_swish_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_LEN = 4096;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvTranspose3dSwishGroupNormHardSwishCustomTilingData tiling;
    auto shape = context->GetInputShape(0)->GetStorageShape();   // [N, C, D, H, W]
    auto attrs = context->GetAttrs();
    uint32_t groups = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    float eps = *attrs->GetAttrPointer<float>(1);

    uint32_t batch = shape.GetDim(0);
    uint32_t channels = shape.GetDim(1);
    uint32_t spatial = 1;
    for (size_t i = 2; i < shape.GetDimNum(); ++i) {
        spatial *= static_cast<uint32_t>(shape.GetDim(i));
    }
    if (groups == 0 || channels % groups != 0) {
        return ge::GRAPH_FAILED;
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint32_t totalGroups = batch * groups;
    if (coreNum > totalGroups) coreNum = totalGroups;
    if (coreNum == 0) coreNum = 1;

    tiling.set_batch(batch);
    tiling.set_channels(channels);
    tiling.set_groups(groups);
    tiling.set_chPerGroup(channels / groups);
    tiling.set_spatial(spatial);
    tiling.set_tileLen(TILE_LEN);
    tiling.set_totalGroups(totalGroups);
    tiling.set_groupsPerCore(totalGroups / coreNum);
    tiling.set_groupsRemain(totalGroups % coreNum);
    tiling.set_eps(eps);

    context->SetBlockDim(coreNum);
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
class ConvTranspose3dSwishGroupNormHardSwishCustom : public OpDef {
public:
    explicit ConvTranspose3dSwishGroupNormHardSwishCustom(const char* name) : OpDef(name)
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
        this->Attr("num_groups").AttrType(OPTIONAL).Int(4);
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ConvTranspose3dSwishGroupNormHardSwishCustom);
}
