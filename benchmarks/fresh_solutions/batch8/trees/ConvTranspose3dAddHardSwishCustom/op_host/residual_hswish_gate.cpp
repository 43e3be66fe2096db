#include "residual_hswish_gate_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// Two inputs + one output, each double buffered, plus one fp32 scratch tile.
constexpr uint32_t UB_SLOTS = 7;
constexpr uint32_t MAX_TILE = 8192;

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    ResidualHswishGateTilingData tiling;
    const uint64_t total = context->GetInputShape(0)->GetOriginShape().GetShapeSize();

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);

    uint32_t tile = static_cast<uint32_t>(ub / UB_SLOTS / sizeof(float));
    tile = tile / 64 * 64;
    if (tile > MAX_TILE) {
        tile = MAX_TILE;
    }

    // Give every core a 32-byte aligned chunk; the last core takes what is left.
    uint64_t perCore = (total + cores - 1) / cores;
    perCore = (perCore + 7) / 8 * 8;
    if (perCore == 0) {
        perCore = 8;
    }
    uint32_t blockDim = static_cast<uint32_t>((total + perCore - 1) / perCore);
    if (blockDim == 0) {
        blockDim = 1;
    }
    context->SetBlockDim(blockDim);

    tiling.set_totalLength(total);
    tiling.set_perCoreLength(perCore);
    tiling.set_tileLength(tile);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
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
    return ge::GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class ResidualHswishGateCustom : public OpDef {
public:
    explicit ResidualHswishGateCustom(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("residual")
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
OP_ADD(ResidualHswishGateCustom);
} // namespace ops
