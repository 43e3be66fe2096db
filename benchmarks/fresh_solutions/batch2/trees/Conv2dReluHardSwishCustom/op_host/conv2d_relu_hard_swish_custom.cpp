#include "conv2d_relu_hard_swish_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    Conv2dReluHardSwishCustomTilingData td;
    auto x = context->GetInputShape(0)->GetStorageShape();
    auto w = context->GetInputShape(1)->GetStorageShape();
    uint32_t batch = x.GetDim(0), inC = x.GetDim(1), inH = x.GetDim(2), inW = x.GetDim(3);
    uint32_t outC = w.GetDim(0), k = w.GetDim(2);
    if (w.GetDim(1) != inC || w.GetDim(3) != k || inH < k || inW < k) {
        return ge::GRAPH_FAILED;
    }
    uint32_t outH = inH - k + 1;
    uint32_t outW = inW - k + 1;
    uint32_t outWPad = (outW + 7) / 8 * 8;
    uint32_t taps = inC * k * k;
    uint32_t tapsPad = (taps * outC + 7) / 8 * 8;

    // UB: shifted input rows (x2), accumulators (x2), weights
    uint64_t ubBytes = (2ULL * taps * outWPad + 2ULL * outC * outWPad + tapsPad) * sizeof(float);
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    if (ubBytes + 8 * 1024 > ubSize) {
        return ge::GRAPH_FAILED;
    }

    uint32_t rowCount = batch * outH;
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t per = (rowCount + cores - 1) / cores;
    uint32_t blockDim = (rowCount + per - 1) / per;

    td.set_batch(batch);
    td.set_inC(inC);
    td.set_outC(outC);
    td.set_inH(inH);
    td.set_inW(inW);
    td.set_kSize(k);
    td.set_outH(outH);
    td.set_outW(outW);
    td.set_outWPad(outWPad);
    td.set_taps(taps);
    td.set_tapsPad(tapsPad);
    td.set_rowCount(rowCount);
    td.set_rowsPerCore(per);

    context->SetBlockDim(blockDim);
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
    const gert::Shape* x = context->GetInputShape(0);
    const gert::Shape* w = context->GetInputShape(1);
    gert::Shape* y = context->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    y->SetDim(2, x->GetDim(2) - w->GetDim(2) + 1);
    y->SetDim(3, x->GetDim(3) - w->GetDim(3) + 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class Conv2dReluHardSwishCustom : public OpDef {
public:
    explicit Conv2dReluHardSwishCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight")
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
OP_ADD(Conv2dReluHardSwishCustom);
}
