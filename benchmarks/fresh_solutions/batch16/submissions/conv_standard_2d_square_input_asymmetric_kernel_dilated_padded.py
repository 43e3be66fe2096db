project_json_src='''
[
    {
        "op": "ConvStandard2dSquareInputAsymmetricKernelDilatedPaddedCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "weight", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "pad_h", "param_type": "required", "type": "int"},
            {"name": "pad_w", "param_type": "required", "type": "int"},
            {"name": "dilation_h", "param_type": "required", "type": "int"},
            {"name": "dilation_w", "param_type": "required", "type": "int"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvStandard2dSquareInputAsymmetricKernelDilatedPaddedCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, hin);
  TILING_DATA_FIELD_DEF(uint32_t, win);
  TILING_DATA_FIELD_DEF(uint32_t, kh);
  TILING_DATA_FIELD_DEF(uint32_t, kw);
  TILING_DATA_FIELD_DEF(int32_t, padH);
  TILING_DATA_FIELD_DEF(int32_t, padW);
  TILING_DATA_FIELD_DEF(int32_t, dilH);
  TILING_DATA_FIELD_DEF(int32_t, dilW);
  TILING_DATA_FIELD_DEF(uint32_t, hout);
  TILING_DATA_FIELD_DEF(uint32_t, wout);
  TILING_DATA_FIELD_DEF(uint32_t, woutAligned);
  TILING_DATA_FIELD_DEF(uint32_t, coGroup);
  TILING_DATA_FIELD_DEF(uint32_t, totalUnits);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvStandard2dSquareInputAsymmetricKernelDilatedPaddedCustom, ConvStandard2dSquareInputAsymmetricKernelDilatedPaddedCustomTilingData)
}
"""

host_operator_src="""
#include "conv_standard2d_square_input_asymmetric_kernel_dilated_padded_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvStandard2dSquareInputAsymmetricKernelDilatedPaddedCustomTilingData td;
    auto xs = context->GetInputShape(0)->GetStorageShape();
    auto ws = context->GetInputShape(1)->GetStorageShape();
    auto attrs = context->GetAttrs();
    int32_t padH = (int32_t)*attrs->GetAttrPointer<int64_t>(0);
    int32_t padW = (int32_t)*attrs->GetAttrPointer<int64_t>(1);
    int32_t dilH = (int32_t)*attrs->GetAttrPointer<int64_t>(2);
    int32_t dilW = (int32_t)*attrs->GetAttrPointer<int64_t>(3);

    uint32_t batch = xs.GetDim(0), cin = xs.GetDim(1), hin = xs.GetDim(2), win = xs.GetDim(3);
    uint32_t cout = ws.GetDim(0), kh = ws.GetDim(2), kw = ws.GetDim(3);
    int32_t hout = (int32_t)hin + 2 * padH - dilH * ((int32_t)kh - 1);
    int32_t wout = (int32_t)win + 2 * padW - dilW * ((int32_t)kw - 1);
    if (hout <= 0 || wout <= 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t woutA = ((uint32_t)wout + 7) / 8 * 8;
    // the kernel builds shifted rows with DataCopyPad padding, which is limited to one 32B block
    if (padW > 8 || (int32_t)woutA - ((int32_t)win - (int32_t)(kw - 1) * dilW + padW) > 8) {
        return ge::GRAPH_FAILED;
    }

    uint32_t coGroup = 8;
    while (coGroup > 1 && cout % coGroup != 0) coGroup >>= 1;
    uint32_t totalUnits = batch * (uint32_t)hout * (cout / coGroup);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = plat.GetCoreNumAiv();
    context->SetBlockDim(totalUnits < coreNum ? totalUnits : coreNum);

    td.set_batch(batch); td.set_cin(cin); td.set_cout(cout);
    td.set_hin(hin); td.set_win(win); td.set_kh(kh); td.set_kw(kw);
    td.set_padH(padH); td.set_padW(padW); td.set_dilH(dilH); td.set_dilW(dilW);
    td.set_hout((uint32_t)hout); td.set_wout((uint32_t)wout); td.set_woutAligned(woutA);
    td.set_coGroup(coGroup); td.set_totalUnits(totalUnits);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* wsz = context->GetWorkspaceSizes(1);
    wsz[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    const gert::Shape* ws = context->GetInputShape(1);
    auto attrs = context->GetAttrs();
    int64_t padH = *attrs->GetAttrPointer<int64_t>(0);
    int64_t padW = *attrs->GetAttrPointer<int64_t>(1);
    int64_t dilH = *attrs->GetAttrPointer<int64_t>(2);
    int64_t dilW = *attrs->GetAttrPointer<int64_t>(3);
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(4);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(0));
    ys->SetDim(2, xs->GetDim(2) + 2 * padH - dilH * (ws->GetDim(2) - 1));
    ys->SetDim(3, xs->GetDim(3) + 2 * padW - dilW * (ws->GetDim(3) - 1));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvStandard2dSquareInputAsymmetricKernelDilatedPaddedCustom : public OpDef {
public:
    explicit ConvStandard2dSquareInputAsymmetricKernelDilatedPaddedCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("pad_h").Int();
        this->Attr("pad_w").Int();
        this->Attr("dilation_h").Int();
        this->Attr("dilation_w").Int();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ConvStandard2dSquareInputAsymmetricKernelDilatedPaddedCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Dilated, zero-padded 2D convolution (stride 1) computed one output row at a time.
// Unit = (n, oh, group of output channels). For each (ci, kh) whose input row is inside
// the image we DMA the KW horizontally shifted copies of that row straight into aligned
// UB rows; DataCopyPad's left/right padding supplies the zero border. Then
//   acc[co][:] += w[co][ci][kh][kw] * shifted[kw][:]
class KernelConv2dDilated {
public:
    __aicore__ inline KernelConv2dDilated() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y,
                                const ConvStandard2dSquareInputAsymmetricKernelDilatedPaddedCustomTilingData& t)
    {
        td = t;
        xGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)t.batch * t.cin * t.hin * t.win);
        wGm.SetGlobalBuffer((__gm__ float*)w, (uint64_t)t.cout * t.cin * t.kh * t.kw);
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)t.batch * t.cout * t.hout * t.wout);
        rowA = t.woutAligned;
        wPerGroup = t.coGroup * t.cin * t.kh * t.kw;

        pipe.InitBuffer(shiftQue, BUFFER_NUM, t.kw * rowA * sizeof(float));
        pipe.InitBuffer(accQue, 1, t.coGroup * rowA * sizeof(float));
        pipe.InitBuffer(wBuf, (wPerGroup + 7) / 8 * 8 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t groups = td.cout / td.coGroup;
        uint32_t perGroup = td.batch * td.hout;
        int32_t cached = -1;
        for (uint32_t u = GetBlockIdx(); u < td.totalUnits; u += GetBlockNum()) {
            uint32_t g = u / perGroup;
            uint32_t r = u % perGroup;
            uint32_t n = r / td.hout;
            uint32_t oh = r % td.hout;
            if ((int32_t)g != cached) {
                FetchWeights(g);
                cached = (int32_t)g;
            }
            OutputRow(n, oh, g);
        }
        (void)groups;
    }

private:
    __aicore__ inline void FetchWeights(uint32_t g)
    {
        LocalTensor<float> wl = wBuf.Get<float>();
        DataCopyExtParams cp{1, wPerGroup * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(wl, wGm[(uint64_t)g * wPerGroup], cp, pad);
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(e);
        WaitFlag<HardEvent::MTE2_S>(e);
    }

    // KW shifted copies of input row ih of channel ci
    __aicore__ inline void LoadShifted(uint32_t n, uint32_t ci, uint32_t ih)
    {
        LocalTensor<float> sh = shiftQue.AllocTensor<float>();
        uint64_t rowOff = (((uint64_t)n * td.cin + ci) * td.hin + ih) * td.win;
        int32_t wout = (int32_t)td.wout;
        for (uint32_t k = 0; k < td.kw; ++k) {
            int32_t s = (int32_t)k * td.dilW - td.padW;       // iw = ow + s
            int32_t lo = s < 0 ? -s : 0;
            int32_t hi = (int32_t)td.win - s;
            hi = hi < wout ? hi : wout;
            uint32_t cnt = (uint32_t)(hi - lo);
            uint8_t leftPad = (uint8_t)lo;
            uint8_t rightPad = (uint8_t)((int32_t)rowA - hi);
            DataCopyExtParams cp{1, cnt * (uint32_t)sizeof(float), 0, 0, 0};
            DataCopyPadExtParams<float> pad{true, leftPad, rightPad, 0.0f};
            DataCopyPad(sh[k * rowA], xGm[rowOff + (uint64_t)(lo + s)], cp, pad);
        }
        shiftQue.EnQue(sh);
    }

    __aicore__ inline void OutputRow(uint32_t n, uint32_t oh, uint32_t g)
    {
        LocalTensor<float> wl = wBuf.Get<float>();
        LocalTensor<float> acc = accQue.AllocTensor<float>();
        Duplicate(acc, 0.0f, td.coGroup * rowA);
        uint32_t khw = td.kh * td.kw;

        for (uint32_t ci = 0; ci < td.cin; ++ci) {
            for (uint32_t a = 0; a < td.kh; ++a) {
                int32_t ih = (int32_t)oh + (int32_t)a * td.dilH - td.padH;
                if (ih < 0 || ih >= (int32_t)td.hin) {
                    continue;   // zero padding rows contribute nothing
                }
                LoadShifted(n, ci, (uint32_t)ih);
                LocalTensor<float> sh = shiftQue.DeQue<float>();
                for (uint32_t co = 0; co < td.coGroup; ++co) {
                    uint32_t wb = (co * td.cin + ci) * khw + a * td.kw;
                    for (uint32_t k = 0; k < td.kw; ++k) {
                        Axpy(acc[co * rowA], sh[k * rowA], wl.GetValue(wb + k), rowA);
                    }
                }
                shiftQue.FreeTensor(sh);
            }
        }
        accQue.EnQue(acc);

        LocalTensor<float> res = accQue.DeQue<float>();
        uint32_t plane = td.hout * td.wout;
        uint64_t dst = (((uint64_t)n * td.cout + g * td.coGroup) * td.hout + oh) * td.wout;
        DataCopyExtParams cp;
        cp.blockCount = (uint16_t)td.coGroup;
        cp.blockLen = td.wout * sizeof(float);
        cp.srcStride = 0;                                         // rows are rowA long = whole blocks
        cp.dstStride = (plane - td.wout) * sizeof(float);        // jump to the same row of next channel
        cp.rsv = 0;
        DataCopyPad(yGm[dst], res, cp);
        accQue.FreeTensor(res);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> shiftQue;
    TQue<QuePosition::VECOUT, 1> accQue;
    TBuf<QuePosition::VECCALC> wBuf;
    GlobalTensor<float> xGm, wGm, yGm;
    ConvStandard2dSquareInputAsymmetricKernelDilatedPaddedCustomTilingData td;
    uint32_t rowA, wPerGroup;
};

extern "C" __global__ __aicore__ void conv_standard2d_square_input_asymmetric_kernel_dilated_padded_custom(
    GM_ADDR x, GM_ADDR weight, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelConv2dDilated op;
    op.Init(x, weight, y, tilingData);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv_standard2d_dilated_padded_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                   int64_t pad_h, int64_t pad_w,
                                                   int64_t dilation_h, int64_t dilation_w)
{
    TORCH_CHECK(x.dim() == 4 && weight.dim() == 4, "expect NCHW input and OIHW weight");
    int64_t hout = x.size(2) + 2 * pad_h - dilation_h * (weight.size(2) - 1);
    int64_t wout = x.size(3) + 2 * pad_w - dilation_w * (weight.size(3) - 1);
    at::Tensor y = at::empty({x.size(0), weight.size(0), hout, wout}, x.options());
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    EXEC_NPU_CMD(aclnnConvStandard2dSquareInputAsymmetricKernelDilatedPaddedCustom,
                 xc, wc, pad_h, pad_w, dilation_h, dilation_w, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_standard2d_square_input_asymmetric_kernel_dilated_padded_custom",
           &conv_standard2d_dilated_padded_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_standard2d_square_input_asymmetric_kernel_dilated_padded_custom",
          &conv_standard2d_dilated_padded_impl_npu, "dilated + padded conv2d, stride 1");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: tuple, stride: int = 1,
                 padding: tuple = (0, 0), dilation: tuple = (1, 1), bias: bool = False):
        super().__init__()
        self.conv2d = nn.Conv2d(in_channels, out_channels, kernel_size, stride=stride,
                                padding=padding, dilation=dilation, bias=bias)
        self.padding = padding
        self.dilation = dilation

    def forward(self, x):
        return custom_ops_lib.conv_standard2d_square_input_asymmetric_kernel_dilated_padded_custom(
            x, self.conv2d.weight, self.padding[0], self.padding[1], self.dilation[0], self.dilation[1])
'''
