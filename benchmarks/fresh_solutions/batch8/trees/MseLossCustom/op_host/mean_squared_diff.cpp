#include "mean_squared_diff_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// 2 inputs x 2 buffers + accumulator + diff + reduce scratch = 7 fp32 tiles in UB.
constexpr uint32_t UB_TILES = 7;
constexpr uint32_t MAX_TILE_LEN = 6144;

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    MeanSquaredDiffTilingData td;
    const uint64_t numel = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    if (numel == 0) {
        return ge::GRAPH_FAILED;
    }
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);

    uint32_t tile = static_cast<uint32_t>(ub / UB_TILES / sizeof(float)) / 64 * 64;
    if (tile > MAX_TILE_LEN) {
        tile = MAX_TILE_LEN;
    }

    uint64_t chunk = (numel + cores - 1) / cores;
    chunk = (chunk + 7) / 8 * 8;
    const uint32_t used = static_cast<uint32_t>((numel + chunk - 1) / chunk);

    td.set_numel(numel);
    td.set_chunk(chunk);
    td.set_tileLen(tile);
    td.set_invNumel(static_cast<float>(1.0 / static_cast<double>(numel)));
    context->SetBlockDim(used);

    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    // torch.mean(...) over everything -> 0-d tensor
    gert::Shape *out = context->GetOutputShape(0);
    out->SetDimNum(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class MeanSquaredDiffCustom : public OpDef {
public:
    explicit MeanSquaredDiffCustom(const char *name) : OpDef(name)
    {
        this->Input("pred")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("target")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("loss")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MeanSquaredDiffCustom);
} // namespace ops
