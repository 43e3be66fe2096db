#include "matmul_dropout_mean_softmax_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static constexpr uint32_t CHUNK = 4096;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    MatmulDropoutMeanSoftmaxCustomTilingData td;
    auto shape = context->GetInputShape(0)->GetOriginShape();
    uint32_t rows = static_cast<uint32_t>(shape.GetDim(0));
    uint32_t cols = static_cast<uint32_t>(shape.GetDim(1));

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t used = rows < cores ? rows : cores;
    if (used == 0) used = 1;

    uint32_t chunk = cols < CHUNK ? (cols + 7) / 8 * 8 : CHUNK;
    td.set_rows(rows);
    td.set_cols(cols);
    td.set_rowsPerCore(rows / used);
    td.set_tailRows(rows % used);
    td.set_chunkLen(chunk);
    td.set_chunkNum((cols + chunk - 1) / chunk);

    context->SetBlockDim(used);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
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
class MatmulDropoutMeanSoftmaxCustom : public OpDef {
public:
    explicit MatmulDropoutMeanSoftmaxCustom(const char* name) : OpDef(name)
    {
        this->Input("logits")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias")
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
OP_ADD(MatmulDropoutMeanSoftmaxCustom);
}
