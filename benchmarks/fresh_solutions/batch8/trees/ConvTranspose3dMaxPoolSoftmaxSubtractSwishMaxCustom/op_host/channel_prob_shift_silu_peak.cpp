#include "channel_prob_shift_silu_peak_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_CHANNELS = 64;
constexpr uint32_t LANE = 64;               // floats per vector repeat
constexpr uint64_t UB_RESERVE = 8 * 1024;   // head-room for the shift table / alignment

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const auto &xs = context->GetInputShape(0)->GetStorageShape();
    if (xs.GetDimNum() < 3) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = static_cast<uint32_t>(xs.GetDim(0));
    uint32_t c = static_cast<uint32_t>(xs.GetDim(1));
    uint32_t s = 1;
    for (size_t i = 2; i < xs.GetDimNum(); ++i) {
        s *= static_cast<uint32_t>(xs.GetDim(i));
    }
    if (c == 0 || c > MAX_CHANNELS) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t coreNum = plat.GetCoreNumAiv();

    // floats kept in UB per spatial position:
    //   input block  : 2 * C   (double buffered, C channel rows)
    //   output       : 2
    //   max/sum/prob/silu scratch : 4
    uint64_t perPos = (2ULL * c + 2 + 4) * sizeof(float);
    uint32_t tile = static_cast<uint32_t>((ub - UB_RESERVE) / perPos);
    tile = tile / LANE * LANE;
    uint32_t sAligned = (s + LANE - 1) / LANE * LANE;
    if (tile > sAligned) {
        tile = sAligned;
    }
    if (tile == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t tilesPerBatch = (s + tile - 1) / tile;
    uint32_t items = n * tilesPerBatch;
    uint32_t blocks = coreNum < items ? coreNum : items;
    if (blocks == 0) {
        blocks = 1;
    }

    ChannelProbShiftSiluPeakTilingData td;
    td.set_batch(n);
    td.set_channels(c);
    td.set_spatial(s);
    td.set_tile(tile);
    td.set_tilesPerBatch(tilesPerBatch);
    td.set_itemsPerCore(items / blocks);
    td.set_extraItems(items % blocks);

    context->SetBlockDim(blocks);
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
    // (N, C, D, H, W) -> (N, D, H, W): the channel axis is reduced by max
    const gert::Shape *in = context->GetInputShape(0);
    gert::Shape *out = context->GetOutputShape(0);
    out->SetDimNum(in->GetDimNum() - 1);
    out->SetDim(0, in->GetDim(0));
    for (size_t i = 2; i < in->GetDimNum(); ++i) {
        out->SetDim(i - 1, in->GetDim(i));
    }
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class ChannelProbShiftSiluPeakCustom : public OpDef {
public:
    explicit ChannelProbShiftSiluPeakCustom(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("shift")
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
OP_ADD(ChannelProbShiftSiluPeakCustom);
} // namespace ops
