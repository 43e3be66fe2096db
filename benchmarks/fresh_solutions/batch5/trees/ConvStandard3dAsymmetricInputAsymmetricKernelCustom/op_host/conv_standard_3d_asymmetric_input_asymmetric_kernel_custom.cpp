#include "conv_standard_3d_asymmetric_input_asymmetric_kernel_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// UB budget check: weights (Cout*Cin*kD*kH*kW) + Cout accumulator rows +
// 2 x kW shifted input rows must fit in unified buffer.
constexpr uint64_t UB_LIMIT = 180 * 1024;

// Direct convolution, stride 1, no padding, dilation 1, groups 1, no bias
// (the configuration of the benchmark's Conv3d). One task = one output row
// y[n, :, od, oh, :] for all output channels.
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    ConvStandard3dAsymmetricInputAsymmetricKernelCustomTilingData t;
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &wsh = context->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 5 || wsh.GetDimNum() != 5 || xs.GetDim(1) != wsh.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1), d = xs.GetDim(2), h = xs.GetDim(3), w = xs.GetDim(4);
    uint32_t cout = wsh.GetDim(0), kd = wsh.GetDim(2), kh = wsh.GetDim(3), kw = wsh.GetDim(4);
    uint32_t od = d - kd + 1, oh = h - kh + 1, ow = w - kw + 1;
    uint32_t owAlign = (ow + 7) / 8 * 8;

    uint64_t ubNeed = (static_cast<uint64_t>(cout) * cin * kd * kh * kw + 8) * sizeof(float) +
                      static_cast<uint64_t>(cout) * owAlign * sizeof(float) * 1 +
                      2ULL * kw * owAlign * sizeof(float);
    if (ubNeed > UB_LIMIT) {
        return ge::GRAPH_FAILED;
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = platform.GetCoreNumAiv();
    uint32_t tasks = n * od * oh;
    if (cores == 0) {
        cores = 1;
    }
    if (cores > tasks) {
        cores = tasks;
    }

    t.set_inC(cin);
    t.set_inD(d);
    t.set_inH(h);
    t.set_inW(w);
    t.set_outC(cout);
    t.set_kD(kd);
    t.set_kH(kh);
    t.set_kW(kw);
    t.set_outD(od);
    t.set_outH(oh);
    t.set_outW(ow);
    t.set_outWAlign(owAlign);
    t.set_taskNum(tasks);
    t.set_tasksPerCore(tasks / cores);
    t.set_tasksRemain(tasks % cores);

    context->SetBlockDim(cores);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *xs = context->GetInputShape(0);
    const gert::Shape *wsh = context->GetInputShape(1);
    gert::Shape *ys = context->GetOutputShape(0);
    ys->SetDimNum(5);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, wsh->GetDim(0));
    ys->SetDim(2, xs->GetDim(2) - wsh->GetDim(2) + 1);
    ys->SetDim(3, xs->GetDim(3) - wsh->GetDim(3) + 1);
    ys->SetDim(4, xs->GetDim(4) - wsh->GetDim(4) + 1);
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class ConvStandard3dAsymmetricInputAsymmetricKernelCustom : public OpDef {
public:
    explicit ConvStandard3dAsymmetricInputAsymmetricKernelCustom(const char *name) : OpDef(name)
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

OP_ADD(ConvStandard3dAsymmetricInputAsymmetricKernelCustom);
} // namespace ops
