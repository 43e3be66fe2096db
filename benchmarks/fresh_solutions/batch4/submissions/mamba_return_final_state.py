# project json
project_json_src='''
[
    {
        "op": "MambaReturnFinalStateCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "a", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "b", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ]
    }
]
'''

# tiling
host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MambaReturnFinalStateCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, seqLen);
  TILING_DATA_FIELD_DEF(uint32_t, heads);
  TILING_DATA_FIELD_DEF(uint32_t, dHead);
  TILING_DATA_FIELD_DEF(uint32_t, dState);
  TILING_DATA_FIELD_DEF(uint32_t, tasks);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MambaReturnFinalStateCustom, MambaReturnFinalStateCustomTilingData)
}
"""

# host
host_operator_src="""
#include "mamba_return_final_state_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* ctx)
{
    MambaReturnFinalStateCustomTilingData td;
    auto xs = ctx->GetInputShape(0)->GetStorageShape();
    auto bs = ctx->GetInputShape(2)->GetStorageShape();
    uint32_t b = xs.GetDim(0), l = xs.GetDim(1), h = xs.GetDim(2), p = xs.GetDim(3), n = bs.GetDim(3);
    uint32_t tasks = b * h;
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > tasks) cores = tasks;
    ctx->SetBlockDim(cores);
    td.set_batch(b); td.set_seqLen(l); td.set_heads(h); td.set_dHead(p); td.set_dState(n); td.set_tasks(tasks);
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
    const gert::Shape* b = ctx->GetInputShape(2);
    gert::Shape* y = ctx->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, x->GetDim(2));
    y->SetDim(2, b->GetDim(3));
    y->SetDim(3, x->GetDim(3));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class MambaReturnFinalStateCustom : public OpDef {
public:
    explicit MambaReturnFinalStateCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MambaReturnFinalStateCustom);
}
"""

# kernel
kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

class KernelSsdFinal {
public:
    __aicore__ inline KernelSsdFinal() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR a, GM_ADDR b, GM_ADDR y, const MambaReturnFinalStateCustomTilingData& td)
    {
        B = td.batch; L = td.seqLen; H = td.heads; P = td.dHead; N = td.dState; tasks = td.tasks;
        xGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)B * L * H * P);
        aGm.SetGlobalBuffer((__gm__ float*)a, (uint64_t)B * L * H);
        bGm.SetGlobalBuffer((__gm__ float*)b, (uint64_t)B * L * H * N);
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)B * H * N * P);
        pipe.InitBuffer(xQ, 1, L * P * sizeof(float));
        pipe.InitBuffer(bQ, 1, L * N * sizeof(float));
        pipe.InitBuffer(yQ, 1, N * P * sizeof(float));
        pipe.InitBuffer(eBuf, (L + 7) / 8 * 8 * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t id = GetBlockIdx(); id < tasks; id += GetBlockNum()) {
            uint32_t bi = id / H, hi = id % H;
            Load(bi, hi);
            Decay(bi, hi);
            Accum();
            Store(id);
        }
    }

private:
    __aicore__ inline void Load(uint32_t bi, uint32_t hi)
    {
        LocalTensor<float> xl = xQ.AllocTensor<float>();
        LocalTensor<float> bl = bQ.AllocTensor<float>();
        uint64_t xo = ((uint64_t)bi * L * H + hi) * P;
        uint64_t bo = ((uint64_t)bi * L * H + hi) * N;
        DataCopyExtParams cx{(uint16_t)L, P * (uint32_t)sizeof(float), (H - 1) * P * (uint32_t)sizeof(float), 0, 0};
        DataCopyExtParams cb{(uint16_t)L, N * (uint32_t)sizeof(float), (H - 1) * N * (uint32_t)sizeof(float), 0, 0};
        DataCopyPadExtParams<float> pp{false, 0, 0, 0.0f};
        DataCopyPad(xl, xGm[xo], cx, pp);
        DataCopyPad(bl, bGm[bo], cb, pp);
        xQ.EnQue(xl);
        bQ.EnQue(bl);
    }
    __aicore__ inline void Decay(uint32_t bi, uint32_t hi)
    {
        LocalTensor<float> e = eBuf.Get<float>();
        uint64_t ao = (uint64_t)bi * L * H + hi;
        float s = 0.0f;
        for (int32_t t = (int32_t)L - 1; t >= 0; t--) {
            e.SetValue(t, s);
            s += aGm.GetValue(ao + (uint64_t)t * H);
        }
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev);
        WaitFlag<HardEvent::S_V>(ev);
        Exp(e, e, L);
    }
    __aicore__ inline void Accum()
    {
        LocalTensor<float> xl = xQ.DeQue<float>();
        LocalTensor<float> bl = bQ.DeQue<float>();
        LocalTensor<float> e = eBuf.Get<float>();
        LocalTensor<float> yl = yQ.AllocTensor<float>();
        Duplicate(yl, 0.0f, N * P);
        PipeBarrier<PIPE_ALL>();
        for (uint32_t t = 0; t < L; t++) {
            float w = e.GetValue(t);
            for (uint32_t n = 0; n < N; n++) {
                float c = w * bl.GetValue(t * N + n);
                Axpy(yl[n * P], xl[t * P], c, P);
            }
        }
        yQ.EnQue(yl);
        xQ.FreeTensor(xl);
        bQ.FreeTensor(bl);
    }
    __aicore__ inline void Store(uint32_t id)
    {
        LocalTensor<float> yl = yQ.DeQue<float>();
        DataCopy(yGm[(uint64_t)id * N * P], yl, N * P);
        yQ.FreeTensor(yl);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 1> xQ, bQ;
    TQue<QuePosition::VECOUT, 1> yQ;
    TBuf<QuePosition::VECCALC> eBuf;
    GlobalTensor<float> xGm, aGm, bGm, yGm;
    uint32_t B, L, H, P, N, tasks;
};

extern "C" __global__ __aicore__ void mamba_return_final_state_custom(GM_ADDR x, GM_ADDR a, GM_ADDR b, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelSsdFinal op;
    op.Init(x, a, b, y, td);
    op.Process();
}
"""

# binding
python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor mamba_return_final_state_custom_impl_npu(const at::Tensor& x, const at::Tensor& a, const at::Tensor& b)
{
    at::Tensor xc = x.contiguous(), ac = a.contiguous(), bc = b.contiguous();
    at::Tensor y = at::empty({x.size(0), x.size(2), b.size(3), x.size(3)}, x.options());
    EXEC_NPU_CMD(aclnnMambaReturnFinalStateCustom, xc, ac, bc, y);
    return y.transpose(2, 3).contiguous();
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("mamba_return_final_state_custom", &mamba_return_final_state_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("mamba_return_final_state_custom", &mamba_return_final_state_custom_impl_npu, "");
}
"""

# model
model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib

class ModelNew(nn.Module):
    def __init__(self, batch_size, seq_length, n_heads, d_head, d_state, block_len=64):
        super().__init__()
        self.block_len = block_len
        self.A = nn.Parameter(torch.randn(batch_size, seq_length, n_heads))
        self.B = nn.Parameter(torch.randn(batch_size, seq_length, n_heads, d_state))
        self.C = nn.Parameter(torch.randn(batch_size, seq_length, n_heads, d_state))

    def forward(self, X, initial_states=None):
        return custom_ops_lib.mamba_return_final_state_custom(X, self.A, self.B)
'''
