# project json
project_json_src='''
[
    {
        "op": "ConvTransposed2dAsymmetricInputAsymmetricKernelStridedGroupedPaddedDilatedCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "weight", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "stride", "param_type": "required", "type": "listInt"},
            {"name": "padding", "param_type": "required", "type": "listInt"},
            {"name": "dilation", "param_type": "required", "type": "listInt"},
            {"name": "groups", "param_type": "required", "type": "int"}
        ]
    }
]
'''

# tiling
host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvTransposed2dAsymmetricInputAsymmetricKernelStridedGroupedPaddedDilatedCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, h);
  TILING_DATA_FIELD_DEF(uint32_t, w);
  TILING_DATA_FIELD_DEF(uint32_t, kh);
  TILING_DATA_FIELD_DEF(uint32_t, kw);
  TILING_DATA_FIELD_DEF(uint32_t, sh);
  TILING_DATA_FIELD_DEF(uint32_t, sw);
  TILING_DATA_FIELD_DEF(uint32_t, ph);
  TILING_DATA_FIELD_DEF(uint32_t, pw);
  TILING_DATA_FIELD_DEF(uint32_t, dh);
  TILING_DATA_FIELD_DEF(uint32_t, dw);
  TILING_DATA_FIELD_DEF(uint32_t, groups);
  TILING_DATA_FIELD_DEF(uint32_t, oh);
  TILING_DATA_FIELD_DEF(uint32_t, ow);
  TILING_DATA_FIELD_DEF(uint32_t, wPad);
  TILING_DATA_FIELD_DEF(uint32_t, owPad);
  TILING_DATA_FIELD_DEF(uint32_t, tasks);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTransposed2dAsymmetricInputAsymmetricKernelStridedGroupedPaddedDilatedCustom, ConvTransposed2dAsymmetricInputAsymmetricKernelStridedGroupedPaddedDilatedCustomTilingData)
}
"""

# host
host_operator_src="""
#include "conv_transposed2d_asymmetric_input_asymmetric_kernel_strided_grouped_padded_dilated_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* ctx)
{
    ConvTransposed2dAsymmetricInputAsymmetricKernelStridedGroupedPaddedDilatedCustomTilingData td;
    auto xs = ctx->GetInputShape(0)->GetStorageShape();
    auto ws = ctx->GetInputShape(1)->GetStorageShape();
    auto at = ctx->GetAttrs();
    const int64_t* st = at->GetListInt(0)->GetData();
    const int64_t* pd = at->GetListInt(1)->GetData();
    const int64_t* dl = at->GetListInt(2)->GetData();
    uint32_t g = static_cast<uint32_t>(*at->GetAttrPointer<int64_t>(3));
    uint32_t n = xs.GetDim(0), ci = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t co = ws.GetDim(1) * g, kh = ws.GetDim(2), kw = ws.GetDim(3);
    uint32_t oh = (h - 1) * st[0] - 2 * pd[0] + dl[0] * (kh - 1) + 1;
    uint32_t ow = (w - 1) * st[1] - 2 * pd[1] + dl[1] * (kw - 1) + 1;
    uint32_t tasks = n * co * oh;
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > tasks) cores = tasks;
    ctx->SetBlockDim(cores);
    td.set_n(n); td.set_cin(ci); td.set_cout(co); td.set_h(h); td.set_w(w); td.set_kh(kh); td.set_kw(kw);
    td.set_sh(st[0]); td.set_sw(st[1]); td.set_ph(pd[0]); td.set_pw(pd[1]); td.set_dh(dl[0]); td.set_dw(dl[1]);
    td.set_groups(g); td.set_oh(oh); td.set_ow(ow);
    td.set_wPad((w + 7) / 8 * 8); td.set_owPad((ow + 7) / 8 * 8); td.set_tasks(tasks);
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* wsz = ctx->GetWorkspaceSizes(1);
    wsz[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* ctx)
{
    const gert::Shape* x = ctx->GetInputShape(0);
    const gert::Shape* w = ctx->GetInputShape(1);
    auto at = ctx->GetAttrs();
    const int64_t* st = at->GetListInt(0)->GetData();
    const int64_t* pd = at->GetListInt(1)->GetData();
    const int64_t* dl = at->GetListInt(2)->GetData();
    int64_t g = *at->GetAttrPointer<int64_t>(3);
    gert::Shape* y = ctx->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1) * g);
    y->SetDim(2, (x->GetDim(2) - 1) * st[0] - 2 * pd[0] + dl[0] * (w->GetDim(2) - 1) + 1);
    y->SetDim(3, (x->GetDim(3) - 1) * st[1] - 2 * pd[1] + dl[1] * (w->GetDim(3) - 1) + 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvTransposed2dAsymmetricInputAsymmetricKernelStridedGroupedPaddedDilatedCustom : public OpDef {
public:
    explicit ConvTransposed2dAsymmetricInputAsymmetricKernelStridedGroupedPaddedDilatedCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("stride").ListInt();
        this->Attr("padding").ListInt();
        this->Attr("dilation").ListInt();
        this->Attr("groups").Int();
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ConvTransposed2dAsymmetricInputAsymmetricKernelStridedGroupedPaddedDilatedCustom);
}
"""

# kernel
kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

class KernelConvTGrp {
public:
    __aicore__ inline KernelConvTGrp() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR wt, GM_ADDR y,
        const ConvTransposed2dAsymmetricInputAsymmetricKernelStridedGroupedPaddedDilatedCustomTilingData& td)
    {
        N = td.n; CI = td.cin; CO = td.cout; H = td.h; W = td.w; KH = td.kh; KW = td.kw;
        SH = td.sh; SW = td.sw; PH = td.ph; PW = td.pw; DH = td.dh; DW = td.dw; G = td.groups;
        OH = td.oh; OW = td.ow; WP = td.wPad; OWP = td.owPad; tasks = td.tasks;
        cig = CI / G; cog = CO / G;
        xGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)N * CI * H * W);
        wGm.SetGlobalBuffer((__gm__ float*)wt, (uint64_t)CI * cog * KH * KW);
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)N * CO * OH * OW);
        pipe.InitBuffer(xQ, 2, WP * sizeof(float));
        pipe.InitBuffer(yQ, 2, OWP * sizeof(float));
        pipe.InitBuffer(accB, KW * WP * sizeof(float));
        pipe.InitBuffer(idxB, KW * OWP * sizeof(uint32_t));
        pipe.InitBuffer(mskB, KW * OWP * sizeof(float));
        pipe.InitBuffer(gB, OWP * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        Tables();
        for (uint32_t id = GetBlockIdx(); id < tasks; id += GetBlockNum()) {
            uint32_t r = id % OH;
            uint32_t oc = (id / OH) % CO;
            uint32_t b = id / OH / CO;
            Accumulate(b, oc, r);
            Scatter();
            Store(((uint64_t)(b * CO + oc) * OH + r) * OW);
        }
    }

private:
    __aicore__ inline void Tables()
    {
        LocalTensor<uint32_t> idx = idxB.Get<uint32_t>();
        LocalTensor<float> msk = mskB.Get<float>();
        for (uint32_t k = 0; k < KW; k++) {
            for (uint32_t j = 0; j < OW; j++) {
                int32_t t = (int32_t)j + (int32_t)PW - (int32_t)(k * DW);
                uint32_t off = 0;
                float m = 0.0f;
                if (t >= 0 && t % (int32_t)SW == 0 && t / (int32_t)SW < (int32_t)W) {
                    off = (k * WP + (uint32_t)(t / (int32_t)SW)) * sizeof(float);
                    m = 1.0f;
                }
                idx.SetValue(k * OWP + j, off);
                msk.SetValue(k * OWP + j, m);
            }
        }
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev);
        WaitFlag<HardEvent::S_V>(ev);
    }
    __aicore__ inline void Accumulate(uint32_t b, uint32_t oc, uint32_t r)
    {
        LocalTensor<float> acc = accB.Get<float>();
        Duplicate(acc, 0.0f, KW * WP);
        uint32_t g = oc / cog, ol = oc % cog;
        DataCopyExtParams cp{1, W * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pp{false, 0, 0, 0.0f};
        for (uint32_t k = 0; k < KH; k++) {
            int32_t t = (int32_t)r + (int32_t)PH - (int32_t)(k * DH);
            if (t < 0 || t % (int32_t)SH != 0) continue;
            uint32_t ih = (uint32_t)(t / (int32_t)SH);
            if (ih >= H) continue;
            for (uint32_t c = 0; c < cig; c++) {
                uint32_t ic = g * cig + c;
                LocalTensor<float> xl = xQ.AllocTensor<float>();
                DataCopyPad(xl, xGm[((uint64_t)(b * CI + ic) * H + ih) * W], cp, pp);
                xQ.EnQue(xl);
                xl = xQ.DeQue<float>();
                uint64_t wb = ((uint64_t)ic * cog + ol) * KH * KW + k * KW;
                for (uint32_t q = 0; q < KW; q++) {
                    Axpy(acc[q * WP], xl, wGm.GetValue(wb + q), W);
                }
                xQ.FreeTensor(xl);
            }
        }
    }
    __aicore__ inline void Scatter()
    {
        LocalTensor<float> acc = accB.Get<float>();
        LocalTensor<uint32_t> idx = idxB.Get<uint32_t>();
        LocalTensor<float> msk = mskB.Get<float>();
        LocalTensor<float> gl = gB.Get<float>();
        LocalTensor<float> yl = yQ.AllocTensor<float>();
        Duplicate(yl, 0.0f, OWP);
        for (uint32_t q = 0; q < KW; q++) {
            Gather(gl, acc, idx[q * OWP], 0, OW);
            Mul(gl, gl, msk[q * OWP], OW);
            Add(yl, yl, gl, OW);
        }
        yQ.EnQue(yl);
    }
    __aicore__ inline void Store(uint64_t off)
    {
        LocalTensor<float> yl = yQ.DeQue<float>();
        DataCopyExtParams cp{1, OW * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(yGm[off], yl, cp);
        yQ.FreeTensor(yl);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> xQ;
    TQue<QuePosition::VECOUT, 2> yQ;
    TBuf<QuePosition::VECCALC> accB, idxB, mskB, gB;
    GlobalTensor<float> xGm, wGm, yGm;
    uint32_t N, CI, CO, H, W, KH, KW, SH, SW, PH, PW, DH, DW, G, OH, OW, WP, OWP, tasks, cig, cog;
};

extern "C" __global__ __aicore__ void conv_transposed_2d_asymmetric_input_asymmetric_kernel_strided_grouped_padded_dilated_custom(
    GM_ADDR x, GM_ADDR weight, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelConvTGrp op;
    op.Init(x, weight, y, td);
    op.Process();
}
"""

# binding
python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv_transposed_2d_asymmetric_input_asymmetric_kernel_strided_grouped_padded_dilated_custom_impl_npu(
    const at::Tensor& x, const at::Tensor& weight, std::vector<int64_t> stride, std::vector<int64_t> padding,
    std::vector<int64_t> dilation, int64_t groups)
{
    int64_t oh = (x.size(2) - 1) * stride[0] - 2 * padding[0] + dilation[0] * (weight.size(2) - 1) + 1;
    int64_t ow = (x.size(3) - 1) * stride[1] - 2 * padding[1] + dilation[1] * (weight.size(3) - 1) + 1;
    at::Tensor y = at::empty({x.size(0), weight.size(1) * groups, oh, ow}, x.options());
    at::IntArrayRef st(stride), pd(padding), dl(dilation);
    EXEC_NPU_CMD(aclnnConvTransposed2dAsymmetricInputAsymmetricKernelStridedGroupedPaddedDilatedCustom, x, weight, st, pd, dl, groups, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transposed_2d_asymmetric_input_asymmetric_kernel_strided_grouped_padded_dilated_custom",
           &conv_transposed_2d_asymmetric_input_asymmetric_kernel_strided_grouped_padded_dilated_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transposed_2d_asymmetric_input_asymmetric_kernel_strided_grouped_padded_dilated_custom",
          &conv_transposed_2d_asymmetric_input_asymmetric_kernel_strided_grouped_padded_dilated_custom_impl_npu, "");
}
"""

# model
model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride=(1, 1), padding=(0, 0), dilation=(1, 1), groups=1, bias=False):
        super().__init__()
        self.conv_transpose2d = torch.nn.ConvTranspose2d(in_channels, out_channels, kernel_size, stride=stride, padding=padding, dilation=dilation, groups=groups, bias=bias)
        self.stride = list(stride)
        self.padding = list(padding)
        self.dilation = list(dilation)
        self.groups = groups

    def forward(self, x):
        return custom_ops_lib.conv_transposed_2d_asymmetric_input_asymmetric_kernel_strided_grouped_padded_dilated_custom(
            x, self.conv_transpose2d.weight, self.stride, self.padding, self.dilation, self.groups)
'''
