# project json
project_json_src='''
[
    {
        "op": "Conv2dGroupNormTanhHardSwishResidualAddLogSumExpCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "gamma", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "beta", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "groups", "param_type": "required", "type": "int"},
            {"name": "eps", "param_type": "optional", "type": "float", "default_value": "1e-5"}
        ]
    }
]
'''

# tiling
host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Conv2dGroupNormTanhHardSwishResidualAddLogSumExpCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, ch);
  TILING_DATA_FIELD_DEF(uint32_t, hw);
  TILING_DATA_FIELD_DEF(uint32_t, groups);
  TILING_DATA_FIELD_DEF(uint32_t, tile);
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Conv2dGroupNormTanhHardSwishResidualAddLogSumExpCustom, Conv2dGroupNormTanhHardSwishResidualAddLogSumExpCustomTilingData)
}
"""

# host
host_operator_src="""
#include "conv2d_group_norm_tanh_hard_swish_residual_add_log_sum_exp_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* ctx)
{
    Conv2dGroupNormTanhHardSwishResidualAddLogSumExpCustomTilingData td;
    auto s = ctx->GetInputShape(0)->GetStorageShape();
    uint32_t n = s.GetDim(0), c = s.GetDim(1), hw = s.GetDim(2) * s.GetDim(3);
    auto at = ctx->GetAttrs();
    uint32_t g = static_cast<uint32_t>(*at->GetAttrPointer<int64_t>(0));
    const float* eps = at->GetAttrPointer<float>(1);
    uint32_t tile = (hw + 7) / 8 * 8;
    if (tile > 2048) tile = 2048;
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > n) cores = n;
    ctx->SetBlockDim(cores);
    td.set_batch(n); td.set_ch(c); td.set_hw(hw); td.set_groups(g); td.set_tile(tile);
    td.set_eps(eps == nullptr ? 1e-5f : *eps);
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* ws = ctx->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* ctx)
{
    const gert::Shape* x = ctx->GetInputShape(0);
    gert::Shape* y = ctx->GetOutputShape(0);
    *y = *x;
    y->SetDim(1, 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class Conv2dGroupNormTanhHardSwishResidualAddLogSumExpCustom : public OpDef {
public:
    explicit Conv2dGroupNormTanhHardSwishResidualAddLogSumExpCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("groups").Int();
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5);
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Conv2dGroupNormTanhHardSwishResidualAddLogSumExpCustom);
}
"""

# kernel
kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t MAX_C = 256;

class KernelGnLse {
public:
    __aicore__ inline KernelGnLse() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR g, GM_ADDR b, GM_ADDR y,
                                const Conv2dGroupNormTanhHardSwishResidualAddLogSumExpCustomTilingData& td)
    {
        NB = td.batch; C = td.ch; HW = td.hw; G = td.groups; T = td.tile; eps = td.eps;
        cpg = C / G;
        xGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)NB * C * HW);
        gGm.SetGlobalBuffer((__gm__ float*)g, C);
        bGm.SetGlobalBuffer((__gm__ float*)b, C);
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)NB * HW);
        pipe.InitBuffer(inQ, 2, T * sizeof(float));
        pipe.InitBuffer(outQ, 2, T * sizeof(float));
        pipe.InitBuffer(mB, T * sizeof(float));
        pipe.InitBuffer(sB, T * sizeof(float));
        pipe.InitBuffer(tB, T * sizeof(float));
        pipe.InitBuffer(uB, T * sizeof(float));
        pipe.InitBuffer(dB, T * sizeof(float));
        pipe.InitBuffer(rB, 8 * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t n = GetBlockIdx(); n < NB; n += GetBlockNum()) {
            GroupStats(n);
            Fuse(n);
        }
    }

private:
    __aicore__ inline void Load(uint64_t off, uint32_t len)
    {
        LocalTensor<float> xl = inQ.AllocTensor<float>();
        DataCopyExtParams cp{1, len * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pp{false, 0, 0, 0.0f};
        DataCopyPad(xl, xGm[off], cp, pp);
        inQ.EnQue(xl);
    }
    __aicore__ inline float Total(LocalTensor<float>& v)
    {
        LocalTensor<float> r = rB.Get<float>();
        ReduceSum(r, v, dB.Get<float>(), T);
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
        return r.GetValue(0);
    }
    __aicore__ inline void GroupStats(uint32_t n)
    {
        LocalTensor<float> as = tB.Get<float>();
        LocalTensor<float> aq = uB.Get<float>();
        LocalTensor<float> sq = sB.Get<float>();
        float cnt = (float)cpg * (float)HW;
        for (uint32_t g = 0; g < G; g++) {
            Duplicate(as, 0.0f, T);
            Duplicate(aq, 0.0f, T);
            for (uint32_t k = 0; k < cpg; k++) {
                uint64_t base = ((uint64_t)n * C + g * cpg + k) * HW;
                for (uint32_t o = 0; o < HW; o += T) {
                    uint32_t len = (HW - o) < T ? (HW - o) : T;
                    Load(base + o, len);
                    LocalTensor<float> xl = inQ.DeQue<float>();
                    Add(as, as, xl, len);
                    Mul(sq, xl, xl, len);
                    Add(aq, aq, sq, len);
                    inQ.FreeTensor(xl);
                }
            }
            float mean = Total(as) / cnt;
            float var = Total(aq) / cnt - mean * mean;
            if (var < 0.0f) var = 0.0f;
            Duplicate(sq, var + eps, 8);
            Sqrt(sq, sq, 8);
            float rstd = 1.0f / Total8(sq);
            for (uint32_t k = 0; k < cpg; k++) {
                uint32_t c = g * cpg + k;
                float a = gGm.GetValue(c) * rstd;
                sc[c] = a;
                sh[c] = bGm.GetValue(c) - mean * a;
            }
        }
    }
    __aicore__ inline float Total8(LocalTensor<float>& v)
    {
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
        return v.GetValue(0);
    }
    __aicore__ inline void Fuse(uint32_t n)
    {
        LocalTensor<float> m = mB.Get<float>();
        LocalTensor<float> s = sB.Get<float>();
        LocalTensor<float> t = tB.Get<float>();
        LocalTensor<float> u = uB.Get<float>();
        LocalTensor<float> d = dB.Get<float>();
        for (uint32_t o = 0; o < HW; o += T) {
            uint32_t len = (HW - o) < T ? (HW - o) : T;
            for (uint32_t c = 0; c < C; c++) {
                Load(((uint64_t)n * C + c) * HW + o, len);
                LocalTensor<float> xl = inQ.DeQue<float>();
                Muls(t, xl, sc[c], len);
                Adds(t, t, sh[c], len);
                Tanh(t, t, len);
                Adds(u, t, 3.0f, len);
                Maxs(u, u, 0.0f, len);
                Mins(u, u, 6.0f, len);
                Mul(u, u, t, len);
                Muls(u, u, 1.0f / 6.0f, len);
                Add(u, u, xl, len);
                inQ.FreeTensor(xl);
                if (c == 0) {
                    Adds(m, u, 0.0f, len);
                    Duplicate(s, 1.0f, len);
                } else {
                    Max(t, m, u, len);
                    Sub(d, m, t, len);
                    Exp(d, d, len);
                    Mul(s, s, d, len);
                    Sub(d, u, t, len);
                    Exp(d, d, len);
                    Add(s, s, d, len);
                    Adds(m, t, 0.0f, len);
                }
            }
            LocalTensor<float> yl = outQ.AllocTensor<float>();
            Ln(s, s, len);
            Add(yl, m, s, len);
            outQ.EnQue(yl);
            yl = outQ.DeQue<float>();
            DataCopyExtParams cp{1, len * (uint32_t)sizeof(float), 0, 0, 0};
            DataCopyPad(yGm[(uint64_t)n * HW + o], yl, cp);
            outQ.FreeTensor(yl);
        }
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<QuePosition::VECCALC> mB, sB, tB, uB, dB, rB;
    GlobalTensor<float> xGm, gGm, bGm, yGm;
    uint32_t NB, C, HW, G, T, cpg;
    float eps;
    float sc[MAX_C];
    float sh[MAX_C];
};

extern "C" __global__ __aicore__ void conv2d_group_norm_tanh_hard_swish_residual_add_log_sum_exp_custom(
    GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelGnLse op;
    op.Init(x, gamma, beta, y, td);
    op.Process();
}
"""

# binding
python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv2d_group_norm_tanh_hard_swish_residual_add_log_sum_exp_custom_impl_npu(
    const at::Tensor& x, const at::Tensor& w, const at::Tensor& b, const at::Tensor& gamma, const at::Tensor& beta,
    int64_t groups, double eps)
{
    at::Tensor xc = at::conv2d(x, w, b).contiguous();
    at::Tensor y = at::empty({xc.size(0), 1, xc.size(2), xc.size(3)}, xc.options());
    EXEC_NPU_CMD(aclnnConv2dGroupNormTanhHardSwishResidualAddLogSumExpCustom, xc, gamma, beta, groups, eps, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv2d_group_norm_tanh_hard_swish_residual_add_log_sum_exp_custom",
           &conv2d_group_norm_tanh_hard_swish_residual_add_log_sum_exp_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv2d_group_norm_tanh_hard_swish_residual_add_log_sum_exp_custom",
          &conv2d_group_norm_tanh_hard_swish_residual_add_log_sum_exp_custom_impl_npu, "");
}
"""

# model
model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib

class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, groups, eps=1e-5):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.group_norm = nn.GroupNorm(groups, out_channels, eps=eps)

    def forward(self, x):
        return custom_ops_lib.conv2d_group_norm_tanh_hard_swish_residual_add_log_sum_exp_custom(
            x, self.conv.weight, self.conv.bias, self.group_norm.weight, self.group_norm.bias,
            self.group_norm.num_groups, self.group_norm.eps)
'''
