project_json_src='''
[
    {
        "op": "ConvTransposed3dAsymmetricInputAsymmetricKernelCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x_pad", "param_type": "required", "format": ["ND"], "type": ["float"]},
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
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, din);
  TILING_DATA_FIELD_DEF(uint32_t, hp);        // padded input height  (Hin + 2*(KH-1))
  TILING_DATA_FIELD_DEF(uint32_t, wp);        // padded input width, multiple of 8
  TILING_DATA_FIELD_DEF(uint32_t, kd);
  TILING_DATA_FIELD_DEF(uint32_t, kh);
  TILING_DATA_FIELD_DEF(uint32_t, kw);
  TILING_DATA_FIELD_DEF(uint32_t, dout);
  TILING_DATA_FIELD_DEF(uint32_t, hout);
  TILING_DATA_FIELD_DEF(uint32_t, wout);
  TILING_DATA_FIELD_DEF(uint32_t, coGroup);   // output channels accumulated together in UB
  TILING_DATA_FIELD_DEF(uint32_t, taskCount); // batch * dout * ceil(cout/coGroup)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTransposed3dAsymmetricInputAsymmetricKernelCustom,
                           ConvTransposed3dAsymmetricInputAsymmetricKernelCustomTilingData)
}
"""

host_operator_src="""
#include "conv_transposed3d_asymmetric_input_asymmetric_kernel_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* ctx)
{
    ConvTransposed3dAsymmetricInputAsymmetricKernelCustomTilingData td;
    auto xs = ctx->GetInputShape(0)->GetStorageShape();    // (N, Cin, Din, Hp, Wp)  H/W zero padded
    auto ws = ctx->GetInputShape(1)->GetStorageShape();    // (Cin, Cout, KD, KH, KW)
    auto ys = ctx->GetOutputShape(0)->GetStorageShape();   // (N, Cout, Dout, Hout, Wout)

    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1), din = xs.GetDim(2), hp = xs.GetDim(3), wp = xs.GetDim(4);
    uint32_t cout = ws.GetDim(1), kd = ws.GetDim(2), kh = ws.GetDim(3), kw = ws.GetDim(4);
    uint32_t dout = ys.GetDim(2), hout = ys.GetDim(3), wout = ys.GetDim(4);

    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);

    // UB: coGroup accumulator planes + 2 shifted source planes + per-ci weight slab
    uint64_t plane = (uint64_t)hout * wp * sizeof(float);
    uint64_t wSlab = ((uint64_t)cout * kd * kh * kw * sizeof(float) + 31) / 32 * 32;
    uint64_t avail = ub - 8 * 1024 - 2 * plane - 2 * wSlab;
    uint32_t coGroup = static_cast<uint32_t>(avail / plane);
    if (coGroup > cout) coGroup = cout;
    if (coGroup == 0) coGroup = 1;

    uint32_t groups = (cout + coGroup - 1) / coGroup;
    uint32_t tasks = n * dout * groups;
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > tasks) cores = tasks;

    td.set_batch(n); td.set_cin(cin); td.set_cout(cout); td.set_din(din);
    td.set_hp(hp); td.set_wp(wp);
    td.set_kd(kd); td.set_kh(kh); td.set_kw(kw);
    td.set_dout(dout); td.set_hout(hout); td.set_wout(wout);
    td.set_coGroup(coGroup); td.set_taskCount(tasks);

    ctx->SetBlockDim(cores);
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *wsz = ctx->GetWorkspaceSizes(1);
    wsz[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    // the output tensor is allocated by the caller with its true shape
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
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
        this->Input("x_pad").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
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

/*
 * ConvTranspose3d, stride 1, padding 0 (gather form):
 *   y[n,co,d,h,w] = sum_{ci,a,b,c} x[n,ci,d-a,h-b,w-c] * W[ci,co,a,b,c]
 * The host pads H by KH-1 and W by KW-1 on each side (W further rounded up so Wp%8==0).
 * The accumulator plane of one (n, d, co) uses the same row pitch Wp as the padded input,
 * so for fixed (ci, a, b, c) the whole shifted input plane is ONE contiguous run in GM:
 *   start = (KH-1-b)*Wp + (KW-1-c),  length = (Hout-1)*Wp + Wout
 * -> one DMA + one Axpy per output channel. Columns >= Wout of the plane are junk and never stored.
 * Depth taps falling outside [0, Din) are simply skipped.
 */
class ConvT3dKernel {
public:
    __aicore__ inline ConvT3dKernel() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y,
                                const ConvTransposed3dAsymmetricInputAsymmetricKernelCustomTilingData &td)
    {
        N = td.batch; Cin = td.cin; Cout = td.cout; Din = td.din; Hp = td.hp; Wp = td.wp;
        KD = td.kd; KH = td.kh; KW = td.kw; Dout = td.dout; Hout = td.hout; Wout = td.wout;
        coGroup = td.coGroup; tasks = td.taskCount;
        planeLen = Hout * Wp;
        runLen = (Hout - 1) * Wp + Wout;
        kVol = KD * KH * KW;

        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        yGm.SetGlobalBuffer((__gm__ float *)y);

        pipe.InitBuffer(accBuf, coGroup * planeLen * sizeof(float));
        pipe.InitBuffer(srcQ, 2, planeLen * sizeof(float));
        pipe.InitBuffer(wQ, 2, (Cout * kVol + 7) / 8 * 8 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t groups = (Cout + coGroup - 1) / coGroup;
        for (uint32_t t = GetBlockIdx(); t < tasks; t += GetBlockNum()) {
            uint32_t g = t % groups;
            uint32_t d = (t / groups) % Dout;
            uint32_t n = t / groups / Dout;
            uint32_t co0 = g * coGroup;
            uint32_t coCnt = (co0 + coGroup > Cout) ? (Cout - co0) : coGroup;
            Accumulate(n, d, co0, coCnt);
            Store(n, d, co0, coCnt);
        }
    }

private:
    __aicore__ inline void Accumulate(uint32_t n, uint32_t d, uint32_t co0, uint32_t coCnt)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        Duplicate(acc, 0.0f, coCnt * planeLen);

        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        for (uint32_t ci = 0; ci < Cin; ++ci) {
            // weight slab W[ci, :, :, :, :] (contiguous)
            LocalTensor<float> wl = wQ.AllocTensor<float>();
            DataCopyExtParams wcp{1, Cout * kVol * (uint32_t)sizeof(float), 0, 0, 0};
            DataCopyPad(wl, wGm[(uint64_t)ci * Cout * kVol], wcp, noPad);
            wQ.EnQue(wl);
            wl = wQ.DeQue<float>();

            for (uint32_t a = 0; a < KD; ++a) {
                if (d < a || d - a >= Din) continue;
                uint64_t planeBase = (((uint64_t)n * Cin + ci) * Din + (d - a)) * Hp * Wp;
                for (uint32_t b = 0; b < KH; ++b) {
                    for (uint32_t c = 0; c < KW; ++c) {
                        uint64_t start = planeBase + (uint64_t)(KH - 1 - b) * Wp + (KW - 1 - c);
                        LocalTensor<float> src = srcQ.AllocTensor<float>();
                        DataCopyExtParams cp{1, runLen * (uint32_t)sizeof(float), 0, 0, 0};
                        DataCopyPad(src, xGm[start], cp, noPad);
                        srcQ.EnQue(src);
                        src = srcQ.DeQue<float>();
                        uint32_t tap = (a * KH + b) * KW + c;
                        for (uint32_t j = 0; j < coCnt; ++j) {
                            float wv = wl.GetValue((co0 + j) * kVol + tap);
                            Axpy(acc[j * planeLen], src, wv, runLen);
                        }
                        srcQ.FreeTensor(src);
                    }
                }
            }
            wQ.FreeTensor(wl);
        }
    }

    __aicore__ inline void Store(uint32_t n, uint32_t d, uint32_t co0, uint32_t coCnt)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_MTE3));
        SetFlag<HardEvent::V_MTE3>(e);
        WaitFlag<HardEvent::V_MTE3>(e);
        uint32_t rowBytes = Wout * sizeof(float);
        uint32_t srcGap = (Wp * sizeof(float) - (rowBytes + 31) / 32 * 32) / 32;
        for (uint32_t j = 0; j < coCnt; ++j) {
            uint64_t dst = ((((uint64_t)n * Cout + co0 + j) * Dout) + d) * Hout * Wout;
            DataCopyExtParams cp{(uint16_t)Hout, rowBytes, srcGap, 0, 0};
            DataCopyPad(yGm[dst], acc[j * planeLen], cp);
        }
        event_t e2 = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE3_V));
        SetFlag<HardEvent::MTE3_V>(e2);
        WaitFlag<HardEvent::MTE3_V>(e2);
    }

private:
    TPipe pipe;
    TBuf<QuePosition::VECCALC> accBuf;
    TQue<QuePosition::VECIN, 2> srcQ, wQ;
    GlobalTensor<float> xGm, wGm, yGm;
    uint32_t N, Cin, Cout, Din, Hp, Wp, KD, KH, KW, Dout, Hout, Wout;
    uint32_t coGroup, tasks, planeLen, runLen, kVol;
};

extern "C" __global__ __aicore__ void conv_transposed3d_asymmetric_input_asymmetric_kernel_custom(
    GM_ADDR x_pad, GM_ADDR weight, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    ConvT3dKernel op;
    op.Init(x_pad, weight, y, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// stride 1 / padding 0 / groups 1 ConvTranspose3d; H and W are zero padded here so the
// kernel can read every shifted plane as a single contiguous run.
at::Tensor conv_transposed3d_asymmetric_impl_npu(const at::Tensor& x, const at::Tensor& weight)
{
    const int64_t KD = weight.size(2), KH = weight.size(3), KW = weight.size(4);
    const int64_t N = x.size(0), Din = x.size(2), Hin = x.size(3), Win = x.size(4);
    const int64_t Dout = Din + KD - 1, Hout = Hin + KH - 1, Wout = Win + KW - 1;
    int64_t wp = Win + 2 * (KW - 1);
    int64_t wpAligned = (wp + 7) / 8 * 8;
    at::Tensor xp = at::constant_pad_nd(x, {KW - 1, KW - 1 + (wpAligned - wp), KH - 1, KH - 1}, 0.0).contiguous();
    at::Tensor y = at::empty({N, weight.size(1), Dout, Hout, Wout}, x.options());
    EXEC_NPU_CMD(aclnnConvTransposed3dAsymmetricInputAsymmetricKernelCustom, xp, weight, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transposed3d_asymmetric_input_asymmetric_kernel_custom", &conv_transposed3d_asymmetric_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transposed3d_asymmetric_input_asymmetric_kernel_custom", &conv_transposed3d_asymmetric_impl_npu,
          "ConvTranspose3d with asymmetric kernel");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride=(1, 1, 1), padding=(0, 0, 0),
                 output_padding=(0, 0, 0), groups=1, bias=False):
        super(ModelNew, self).__init__()
        self.conv_transpose3d = torch.nn.ConvTranspose3d(in_channels, out_channels, kernel_size, stride=stride,
                                                         padding=padding, output_padding=output_padding,
                                                         groups=groups, bias=bias)

    def forward(self, x):
        y = custom_ops_lib.conv_transposed3d_asymmetric_input_asymmetric_kernel_custom(x, self.conv_transpose3d.weight)
        if self.conv_transpose3d.bias is not None:
            y = y + self.conv_transpose3d.bias.view(1, -1, 1, 1, 1)
        return y
'''
