#include "gru_hidden_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_CHUNK = 2048;   // floats per gate slice kept in UB
constexpr uint32_t MIN_CHUNK = 64;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    GruHiddenCustomTilingData tiling;
    const gert::Shape& hShape = context->GetInputShape(2)->GetStorageShape();
    const gert::Shape& giShape = context->GetInputShape(0)->GetStorageShape();
    uint32_t batch = hShape.GetDim(0);
    uint32_t hidden = hShape.GetDim(1);
    if (giShape.GetDim(1) != 3 * hidden) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();

    // Split H so that all cores get something even when the batch is small,
    // but never below MIN_CHUNK elements (launch/DMA overhead dominates below that).
    uint32_t chunk = hidden;
    while (chunk > MAX_CHUNK || (batch * ((hidden + chunk - 1) / chunk) < cores && chunk / 2 >= MIN_CHUNK)) {
        chunk = (chunk + 1) / 2;
    }
    chunk = (chunk + 7) / 8 * 8;
    uint32_t chunks = (hidden + chunk - 1) / chunk;
    uint32_t units = batch * chunks;
    uint32_t per = (units + cores - 1) / cores;
    uint32_t blockDim = (units + per - 1) / per;

    tiling.set_batch(batch);
    tiling.set_hidden(hidden);
    tiling.set_chunkLen(chunk);
    tiling.set_chunksPerRow(chunks);
    tiling.set_totalUnits(units);
    tiling.set_unitsPerCore(per);

    context->SetBlockDim(blockDim);
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
    *context->GetOutputShape(0) = *context->GetInputShape(2);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(2));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class GruHiddenCustom : public OpDef {
public:
    explicit GruHiddenCustom(const char* name) : OpDef(name)
    {
        this->Input("gi")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("gh")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("h")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("h_new")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(GruHiddenCustom);
}
