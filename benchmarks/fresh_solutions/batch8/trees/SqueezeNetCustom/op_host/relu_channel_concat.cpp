#include "relu_channel_concat_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t CHUNK = 16384;   // upper bound on elements per chunk (64KB of fp32)

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const gert::Shape &a = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape &b = context->GetInputShape(1)->GetOriginShape();
    if (a.GetDimNum() != 4 || b.GetDimNum() != 4 || a.GetDim(0) != b.GetDim(0)) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t batch = a.GetDim(0);
    const uint32_t hw = a.GetDim(2) * a.GetDim(3);
    const uint32_t firstLen = a.GetDim(1) * hw;
    const uint32_t secondLen = b.GetDim(1) * hw;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    const uint32_t cores = plat.GetCoreNumAiv();

    // One input and one output queue, both double buffered -> four chunks resident.
    uint32_t tile = static_cast<uint32_t>(ub / 4 / sizeof(float)) / 64 * 64;
    if (tile > CHUNK) {
        tile = CHUNK;
    }
    const uint32_t fc = (firstLen + tile - 1) / tile;
    const uint32_t sc = (secondLen + tile - 1) / tile;
    const uint32_t totalChunks = batch * (fc + sc);

    ReluChannelConcatTilingData td;
    td.set_batch(batch);
    td.set_firstLen(firstLen);
    td.set_secondLen(secondLen);
    td.set_tileLen(tile);
    td.set_firstChunks(fc);
    td.set_secondChunks(sc);
    context->SetBlockDim(totalChunks < cores ? totalChunks : cores);
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
    const gert::Shape *a = context->GetInputShape(0);
    const gert::Shape *b = context->GetInputShape(1);
    gert::Shape *o = context->GetOutputShape(0);
    *o = *a;
    o->SetDim(1, a->GetDim(1) + b->GetDim(1));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class ReluChannelConcatCustom : public OpDef {
public:
    explicit ReluChannelConcatCustom(const char *name) : OpDef(name)
    {
        this->Input("first")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("second")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ReluChannelConcatCustom);
} // namespace ops
