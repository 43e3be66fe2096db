#include "lstm_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// One LSTM time step (the pointwise part):
//   g = x_gates + h_gates          (B, 4H), gate order i | f | g | o
//   c' = sigmoid(f) * c + sigmoid(i) * tanh(g)
//   h' = sigmoid(o) * tanh(c')
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    LstmCustomTilingData tiling;
    const gert::Shape &cShape = context->GetInputShape(2)->GetStorageShape();
    uint32_t batch = static_cast<uint32_t>(cShape.GetDim(0));
    uint32_t hidden = static_cast<uint32_t>(cShape.GetDim(1));

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = platform.GetCoreNumAiv();
    if (cores == 0) {
        cores = 1;
    }
    if (cores > batch) {
        cores = batch;
    }

    tiling.set_batch(batch);
    tiling.set_hidden(hidden);
    tiling.set_rowsPerCore(batch / cores);
    tiling.set_rowsTail(batch % cores);

    context->SetBlockDim(cores);
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
    const gert::Shape *cShape = context->GetInputShape(2);
    *context->GetOutputShape(0) = *cShape;
    *context->GetOutputShape(1) = *cShape;
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(2));
    context->SetOutputDataType(1, context->GetInputDataType(2));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class LstmCustom : public OpDef {
public:
    explicit LstmCustom(const char *name) : OpDef(name)
    {
        this->Input("x_gates")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("h_gates")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("c_prev")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("h_next")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("c_next")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(LstmCustom);
} // namespace ops
