project_json_src='''
[
    {
        "op": "ConvTransposed3dAsymmetricInputAsymmetricKernelCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "weight", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvTransposed3dAsymmetricInputAsymmetricKernelCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, din);
  TILING_DATA_FIELD_DEF(uint32_t, hin);
  TILING_DATA_FIELD_DEF(uint32_t, win);
  TILING_DATA_FIELD_DEF(uint32_t, kd);
  TILING_DATA_FIELD_DEF(uint32_t, kh);
  TILING_DATA_FIELD_DEF(uint32_t, kw);
  TILING_DATA_FIELD_DEF(uint32_t, dout);
  TILING_DATA_FIELD_DEF(uint32_t, hout);
  TILING_DATA_FIELD_DEF(uint32_t, wout);
  TILING_DATA_FIELD_DEF(uint32_t, woutPad);     // wout rounded up to 8 floats
  TILING_DATA_FIELD_DEF(uint32_t, coBlock);     // output channels per work item
  TILING_DATA_FIELD_DEF(uint32_t, workItems);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTransposed3dAsymmetricInputAsymmetricKernelCustom, ConvTransposed3dAsymmetricInputAsymmetricKernelCustomTilingData)
}
"""

host_operator_src="""
#include "conv_transposed3d_asymmetric_input_asymmetric_kernel_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// accumulator budget for one (n, od, co block) slab: coBlock * hout * woutPad floats
constexpr uint32_t ACC_BUDGET_FLOATS = 12 * 1024;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvTransposed3dAsymmetricInputAsymmetricKernelCustomTilingData t;
    auto xs = context->GetInputShape(0)->GetStorageShape();   // (N, Cin, D, H, W)
    auto ws = context->GetInputShape(1)->GetStorageShape();   // (Cin, Cout, kD, kH, kW)
    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1), din = xs.GetDim(2), hin = xs.GetDim(3), win = xs.GetDim(4);
    uint32_t cout = ws.GetDim(1), kd = ws.GetDim(2), kh = ws.GetDim(3), kw = ws.GetDim(4);
    // stride 1, padding 0, output_padding 0
    uint32_t dout = din + kd - 1, hout = hin + kh - 1, wout = win + kw - 1;
    uint32_t woutPad = (wout + 7) / 8 * 8;
    // shifted rows are produced with DataCopyPad padding (max one 32B block on each side)
    if (kw - 1 > 8 || woutPad - win > 8) {
        return ge::GRAPH_FAILED;
    }

    uint32_t coBlock = cout;
    while (coBlock > 1 && (coBlock * hout * woutPad > ACC_BUDGET_FLOATS || cout % coBlock != 0)) {
        coBlock--;
    }
    uint32_t workItems = n * dout * (cout / coBlock);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    context->SetBlockDim(workItems < cores ? workItems : cores);

    t.set_n(n); t.set_cin(cin); t.set_cout(cout);
    t.set_din(din); t.set_hin(hin); t.set_win(win);
    t.set_kd(kd); t.set_kh(kh); t.set_kw(kw);
    t.set_dout(dout); t.set_hout(hout); t.set_wout(wout); t.set_woutPad(woutPad);
    t.set_coBlock(coBlock); t.set_workItems(workItems);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
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
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(5);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(1));
    for (size_t i = 2; i < 5; ++i) {
        ys->SetDim(i, xs->GetDim(i) + ws->GetDim(i) - 1);
    }
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
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ConvTransposed3dAsymmetricInputAsymmetricKernelCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Transposed 3D convolution, stride 1 / no padding, in its "scatter" form:
//   y[n][co][id+a][ih+b][iw+c] += x[n][ci][id][ih][iw] * w[ci][co][a][b][c]
// A work item is one output depth slice od for a block of output channels; its whole
// (coBlock x Hout x WoutPad) accumulator lives in UB. We walk every input row that can
// reach od (id = od - a), copy it kW times with a left shift of c zeros (DataCopyPad),
// and scatter into the kH output rows it touches with Axpy.
class KernelConvTranspose3d {
public:
    __aicore__ inline KernelConvTranspose3d() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y,
                                const ConvTransposed3dAsymmetricInputAsymmetricKernelCustomTilingData& t)
    {
        p = t;
        kVol = t.kd * t.kh * t.kw;
        xGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)t.n * t.cin * t.din * t.hin * t.win);
        wGm.SetGlobalBuffer((__gm__ float*)w, (uint64_t)t.cin * t.cout * kVol);
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)t.n * t.cout * t.dout * t.hout * t.wout);

        pipe.InitBuffer(rowQ, BUFFER_NUM, t.kw * t.woutPad * sizeof(float));
        pipe.InitBuffer(wQ, 1, ((t.coBlock * kVol + 7) / 8 * 8) * sizeof(float));
        pipe.InitBuffer(accQ, 1, t.coBlock * t.hout * t.woutPad * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t coBlocks = p.cout / p.coBlock;
        for (uint32_t item = GetBlockIdx(); item < p.workItems; item += GetBlockNum()) {
            uint32_t cb = item % coBlocks;
            uint32_t od = (item / coBlocks) % p.dout;
            uint32_t n = item / coBlocks / p.dout;
            DoSlice(n, od, cb * p.coBlock);
        }
    }

private:
    // weights w[ci][co0 : co0+coBlock][...] are contiguous -> one DMA
    __aicore__ inline LocalTensor<float> LoadWeights(uint32_t ci, uint32_t co0)
    {
        LocalTensor<float> wl = wQ.AllocTensor<float>();
        DataCopyExtParams cp{1, p.coBlock * kVol * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(wl, wGm[((uint64_t)ci * p.cout + co0) * kVol], cp, pad);
        wQ.EnQue(wl);
        LocalTensor<float> ready = wQ.DeQue<float>();
        // scalar unit reads the coefficients
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(e);
        WaitFlag<HardEvent::MTE2_S>(e);
        return ready;
    }

    __aicore__ inline void LoadRowShifted(uint64_t rowOff)
    {
        LocalTensor<float> rows = rowQ.AllocTensor<float>();
        DataCopyExtParams cp{1, p.win * (uint32_t)sizeof(float), 0, 0, 0};
        for (uint32_t c = 0; c < p.kw; ++c) {
            // row c holds x shifted right by c: [0]*c, x[0..W), zeros up to woutPad
            DataCopyPadExtParams<float> pad{true, (uint8_t)c, (uint8_t)(p.woutPad - p.win - c), 0.0f};
            DataCopyPad(rows[c * p.woutPad], xGm[rowOff], cp, pad);
        }
        rowQ.EnQue(rows);
    }

    __aicore__ inline void DoSlice(uint32_t n, uint32_t od, uint32_t co0)
    {
        const uint32_t wp = p.woutPad;
        const uint32_t planeA = p.hout * wp;
        LocalTensor<float> acc = accQ.AllocTensor<float>();
        Duplicate(acc, 0.0f, p.coBlock * planeA);

        for (uint32_t ci = 0; ci < p.cin; ++ci) {
            LocalTensor<float> wl = LoadWeights(ci, co0);
            for (uint32_t a = 0; a < p.kd; ++a) {
                int32_t id = (int32_t)od - (int32_t)a;
                if (id < 0 || id >= (int32_t)p.din) {
                    continue;
                }
                uint64_t planeOff = (((uint64_t)n * p.cin + ci) * p.din + (uint32_t)id) * p.hin * p.win;
                for (uint32_t ih = 0; ih < p.hin; ++ih) {
                    LoadRowShifted(planeOff + (uint64_t)ih * p.win);
                    LocalTensor<float> rows = rowQ.DeQue<float>();
                    for (uint32_t co = 0; co < p.coBlock; ++co) {
                        uint32_t wBase = co * kVol + a * p.kh * p.kw;
                        for (uint32_t b = 0; b < p.kh; ++b) {
                            LocalTensor<float> dst = acc[co * planeA + (ih + b) * wp];
                            for (uint32_t c = 0; c < p.kw; ++c) {
                                float coef = wl.GetValue(wBase + b * p.kw + c);
                                Axpy(dst, rows[c * wp], coef, wp);
                            }
                        }
                    }
                    rowQ.FreeTensor(rows);
                }
            }
            wQ.FreeTensor(wl);
        }
        accQ.EnQue(acc);

        // write coBlock x hout rows of wout floats (UB rows are woutPad long)
        LocalTensor<float> out = accQ.DeQue<float>();
        uint64_t outPlane = (uint64_t)p.hout * p.wout;
        for (uint32_t co = 0; co < p.coBlock; ++co) {
            uint64_t dst = (((uint64_t)n * p.cout + co0 + co) * p.dout + od) * outPlane;
            DataCopyExtParams cp{(uint16_t)p.hout, p.wout * (uint32_t)sizeof(float), 0, 0, 0};
            DataCopyPad(yGm[dst], out[co * planeA], cp);
        }
        accQ.FreeTensor(out);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> rowQ;
    TQue<QuePosition::VECIN, 1> wQ;
    TQue<QuePosition::VECOUT, 1> accQ;
    GlobalTensor<float> xGm, wGm, yGm;
    ConvTransposed3dAsymmetricInputAsymmetricKernelCustomTilingData p;
    uint32_t kVol;
};

extern "C" __global__ __aicore__ void conv_transposed3d_asymmetric_input_asymmetric_kernel_custom(
    GM_ADDR x, GM_ADDR weight, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    KernelConvTranspose3d op;
    op.Init(x, weight, y, t);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv_transposed3d_impl_npu(const at::Tensor& x, const at::Tensor& weight)
{
    TORCH_CHECK(x.dim() == 5 && weight.dim() == 5, "expect 5D input and weight");
    TORCH_CHECK(x.size(1) == weight.size(0), "weight must be (C_in, C_out, kD, kH, kW)");
    at::Tensor y = at::empty({x.size(0), weight.size(1),
                              x.size(2) + weight.size(2) - 1,
                              x.size(3) + weight.size(3) - 1,
                              x.size(4) + weight.size(4) - 1}, x.options());
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    EXEC_NPU_CMD(aclnnConvTransposed3dAsymmetricInputAsymmetricKernelCustom, xc, wc, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transposed3d_asymmetric_input_asymmetric_kernel_custom", &conv_transposed3d_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transposed3d_asymmetric_input_asymmetric_kernel_custom", &conv_transposed3d_impl_npu,
          "conv_transpose3d, stride 1, no padding");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: tuple, stride: tuple = (1, 1, 1),
                 padding: tuple = (0, 0, 0), output_padding: tuple = (0, 0, 0), groups: int = 1, bias: bool = False):
        super().__init__()
        self.conv_transpose3d = nn.ConvTranspose3d(in_channels, out_channels, kernel_size, stride=stride,
                                                   padding=padding, output_padding=output_padding,
                                                   groups=groups, bias=bias)

    def forward(self, x):
        return custom_ops_lib.conv_transposed3d_asymmetric_input_asymmetric_kernel_custom(
            x, self.conv_transpose3d.weight)
'''
