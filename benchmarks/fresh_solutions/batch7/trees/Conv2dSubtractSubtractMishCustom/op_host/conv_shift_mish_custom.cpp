#include "conv_shift_mish_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t CHAN_GROUP = 16;
constexpr uint64_t UB_RESERVED = 8 * 1024;   // headroom for scalars / alignment

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const auto &xs = context->GetInputShape(0)->GetStorageShape();
    const auto &ws = context->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 4 || ws.GetDimNum() != 4 || xs.GetDim(1) != ws.GetDim(1) || ws.GetDim(2) != ws.GetDim(3)) {
        return ge::GRAPH_FAILED;
    }
    const auto *attrs = context->GetAttrs();
    float shiftA = *attrs->GetAttrPointer<float>(0);
    float shiftB = *attrs->GetAttrPointer<float>(1);

    uint32_t n = xs.GetDim(0), ci = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t co = ws.GetDim(0), k = ws.GetDim(2);
    uint32_t oh = h - k + 1, ow = w - k + 1;

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    // UB budget: taps (ci*k*k rows) + weights + 2 x chanGroup output rows + 2 temps
    uint32_t taps = ci * k * k;
    uint64_t weightBytes = static_cast<uint64_t>(co) * taps * sizeof(float);
    weightBytes = (weightBytes + 31) / 32 * 32;
    uint64_t avail = ubSize - UB_RESERVED - weightBytes - 64;
    uint64_t perColumn = (static_cast<uint64_t>(taps) + 2 * CHAN_GROUP + 2) * sizeof(float);
    uint32_t segAlign = static_cast<uint32_t>(avail / perColumn) / 8 * 8;
    uint32_t owAlign = (ow + 7) / 8 * 8;
    if (segAlign > owAlign) {
        segAlign = owAlign;
    }
    if (segAlign == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t segW = segAlign < ow ? segAlign : ow;
    uint32_t segNum = (ow + segW - 1) / segW;

    ConvShiftMishTilingData td;
    td.set_batch(n);
    td.set_cin(ci);
    td.set_cout(co);
    td.set_inH(h);
    td.set_inW(w);
    td.set_ksize(k);
    td.set_outH(oh);
    td.set_outW(ow);
    td.set_segW(segW);
    td.set_segAlign(segAlign);
    td.set_segNum(segNum);
    td.set_chanGroup(co < CHAN_GROUP ? co : CHAN_GROUP);
    td.set_taskNum(n * oh * segNum);
    td.set_shift(shiftA + shiftB);

    uint32_t cores = platform.GetCoreNumAiv();
    uint32_t tasks = n * oh * segNum;
    context->SetBlockDim(tasks < cores ? tasks : cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *wsSize = context->GetWorkspaceSizes(1);
    wsSize[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *xs = context->GetInputShape(0);
    const gert::Shape *ws = context->GetInputShape(1);
    gert::Shape *ys = context->GetOutputShape(0);
    ys->SetDimNum(4);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(0));
    ys->SetDim(2, xs->GetDim(2) - ws->GetDim(2) + 1);
    ys->SetDim(3, xs->GetDim(3) - ws->GetDim(3) + 1);
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class ConvShiftMishCustom : public OpDef {
public:
    explicit ConvShiftMishCustom(const char *name) : OpDef(name)
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
        this->Attr("shift_a").Float();
        this->Attr("shift_b").Float();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ConvShiftMishCustom);
} // namespace ops
