#include "conv_transposed_3d_asymmetric_input_asymmetric_kernel_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

// Stride 1 / padding 0 / groups 1 transposed convolution (the configuration of this task):
//   out[n,co,od,oh,ow] = sum_{ci,kd,kh,kw} x[n,ci,od-kd,oh-kh,ow-kw] * w[ci,co,kd,kh,kw]
namespace optiling {
static uint32_t RoundUp(uint32_t x, uint32_t a) { return (x + a - 1) / a * a; }

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvTransposed3dAsymmetricInputAsymmetricKernelCustomTilingData t;
    auto xs = context->GetInputShape(0)->GetStorageShape();   // N, Cin, D, H, W
    auto ws = context->GetInputShape(1)->GetStorageShape();   // Cin, Cout, KD, KH, KW
    if (xs.GetDimNum() != 5 || ws.GetDimNum() != 5 || xs.GetDim(1) != ws.GetDim(0)) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1);
    uint32_t d = xs.GetDim(2), h = xs.GetDim(3), w = xs.GetDim(4);
    uint32_t cout = ws.GetDim(1), kd = ws.GetDim(2), kh = ws.GetDim(3), kw = ws.GetDim(4);
    uint32_t od = d + kd - 1, oh = h + kh - 1, ow = w + kw - 1;

    uint32_t head = RoundUp(kw - 1, 8);
    if (head == 0) {
        head = 8;
    }
    uint32_t rowLen = RoundUp(head + ow, 8);
    uint32_t owAlign = RoundUp(ow, 8);
    uint32_t wSlice = RoundUp(cout * kd * kh * kw, 8);

    // UB check: weights slice + row + tap + offsets + accumulators (double buffered)
    uint64_t ub = (uint64_t)(wSlice + rowLen + owAlign + owAlign + 2 * cout * owAlign) * 4;
    if (ub > 180 * 1024) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t total = n * od * oh;
    uint32_t per = (total + cores - 1) / cores;
    uint32_t used = (total + per - 1) / per;

    t.set_cin(cin);
    t.set_cout(cout);
    t.set_inD(d);
    t.set_inH(h);
    t.set_inW(w);
    t.set_kD(kd);
    t.set_kH(kh);
    t.set_kW(kw);
    t.set_outD(od);
    t.set_outH(oh);
    t.set_outW(ow);
    t.set_head(head);
    t.set_rowLen(rowLen);
    t.set_owAlign(owAlign);
    t.set_wSliceLen(wSlice);
    t.set_totalRows(total);
    t.set_rowsPerCore(per);

    context->SetBlockDim(used);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    const gert::Shape* ws = context->GetInputShape(1);
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(5);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(1));
    ys->SetDim(2, xs->GetDim(2) + ws->GetDim(2) - 1);
    ys->SetDim(3, xs->GetDim(3) + ws->GetDim(3) - 1);
    ys->SetDim(4, xs->GetDim(4) + ws->GetDim(4) - 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvTransposed3dAsymmetricInputAsymmetricKernelCustom : public OpDef {
public:
    explicit ConvTransposed3dAsymmetricInputAsymmetricKernelCustom(const char* name) : OpDef(name)
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
OP_ADD(ConvTransposed3dAsymmetricInputAsymmetricKernelCustom);
}
