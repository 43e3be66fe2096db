project_json_src='''
[
    {
        "op": "MinGptCausalAttentionCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "q", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "k_t", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "v", "param_type": "required", "format": ["ND"], "type": ["float"]}
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
BEGIN_TILING_DATA_DEF(MinGptCausalAttentionCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, heads);       // B * n_head
  TILING_DATA_FIELD_DEF(uint32_t, seqLen);      // T
  TILING_DATA_FIELD_DEF(uint32_t, headSize);    // hs
  TILING_DATA_FIELD_DEF(uint32_t, qBlock);      // query rows per task
  TILING_DATA_FIELD_DEF(uint32_t, kBlock);      // keys per streamed tile
  TILING_DATA_FIELD_DEF(uint32_t, qBlockNum);
  TILING_DATA_FIELD_DEF(uint32_t, taskNum);
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MinGptCausalAttentionCustom, MinGptCausalAttentionCustomTilingData)
}
"""

host_operator_src="""
#include "min_gpt_causal_attention_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include <cmath>

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    MinGptCausalAttentionCustomTilingData tiling;
    auto qs = context->GetInputShape(0)->GetStorageShape();   // (BH, T, hs)
    uint32_t heads = qs.GetDim(0);
    uint32_t seq = qs.GetDim(1);
    uint32_t hs = qs.GetDim(2);
    const uint32_t qBlock = 16;
    const uint32_t kBlock = 64;
    if (seq % kBlock != 0 || seq % qBlock != 0 || hs % 8 != 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t qBlockNum = seq / qBlock;
    uint32_t taskNum = heads * qBlockNum;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aiv = plat.GetCoreNumAiv();
    context->SetBlockDim(taskNum < aiv ? taskNum : aiv);

    tiling.set_heads(heads);
    tiling.set_seqLen(seq);
    tiling.set_headSize(hs);
    tiling.set_qBlock(qBlock);
    tiling.set_kBlock(kBlock);
    tiling.set_qBlockNum(qBlockNum);
    tiling.set_taskNum(taskNum);
    tiling.set_scale(1.0f / std::sqrt(static_cast<float>(hs)));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class MinGptCausalAttentionCustom : public OpDef {
public:
    explicit MinGptCausalAttentionCustom(const char* name) : OpDef(name)
    {
        this->Input("q").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("k_t").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("v").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MinGptCausalAttentionCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Causal self-attention for one (batch*head, block of 16 query rows) per task.
// K arrives transposed (hs x T) so a score tile for one query row is just
//   S[r][j0:j0+64] = sum_d q[r][d] * Kt[d][j0:j0+64]   (hs Axpy calls)
// Only key tiles up to the last row of the block are visited (causal), the full
// masked row (<= T floats) stays in UB, so softmax is done exactly, not online.
class KernelCausalAttn {
public:
    __aicore__ inline KernelCausalAttn() {}
    __aicore__ inline void Init(GM_ADDR q, GM_ADDR kt, GM_ADDR v, GM_ADDR y,
                                const MinGptCausalAttentionCustomTilingData& td)
    {
        T = td.seqLen;
        hs = td.headSize;
        QB = td.qBlock;
        KB = td.kBlock;
        qBlockNum = td.qBlockNum;
        taskNum = td.taskNum;
        scale = td.scale;

        uint64_t total = (uint64_t)td.heads * T * hs;
        qGm.SetGlobalBuffer((__gm__ float*)q, total);
        ktGm.SetGlobalBuffer((__gm__ float*)kt, total);
        vGm.SetGlobalBuffer((__gm__ float*)v, total);
        yGm.SetGlobalBuffer((__gm__ float*)y, total);

        pipe.InitBuffer(qQ, 1, QB * hs * sizeof(float));
        pipe.InitBuffer(yQ, 1, QB * hs * sizeof(float));
        pipe.InitBuffer(kvQ, BUFFER_NUM, KB * hs * sizeof(float));
        pipe.InitBuffer(scoreBuf, QB * T * sizeof(float));
        pipe.InitBuffer(workBuf, T * sizeof(float));
        pipe.InitBuffer(redBuf, 32 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t task = GetBlockIdx(); task < taskNum; task += GetBlockNum()) {
            uint32_t bh = task / qBlockNum;
            uint32_t qb = task % qBlockNum;
            Attend(bh, qb * QB);
        }
    }

private:
    template <HardEvent EVT>
    __aicore__ inline void Wait()
    {
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(EVT));
        SetFlag<EVT>(e);
        WaitFlag<EVT>(e);
    }

    __aicore__ inline void Attend(uint32_t bh, uint32_t q0)
    {
        uint64_t headOff = (uint64_t)bh * T * hs;
        uint32_t kvEnd = q0 + QB;                         // keys [0, kvEnd) are visible to this block
        uint32_t tiles = (kvEnd + KB - 1) / KB;

        LocalTensor<float> qIn = qQ.AllocTensor<float>();
        DataCopy(qIn, qGm[headOff + (uint64_t)q0 * hs], QB * hs);
        qQ.EnQue(qIn);
        LocalTensor<float> qL = qQ.DeQue<float>();
        Muls(qL, qL, scale, QB * hs);                     // fold 1/sqrt(hs) into q
        Wait<HardEvent::V_S>();

        LocalTensor<float> S = scoreBuf.Get<float>();

        // ---- scores: S = q @ K^T over the visible key tiles
        for (uint32_t t = 0; t < tiles; ++t) {
            uint32_t j0 = t * KB;
            LocalTensor<float> ktIn = kvQ.AllocTensor<float>();
            // Kt is (hs, T): take columns [j0, j0+KB) of every row d
            DataCopyParams cp;
            cp.blockCount = (uint16_t)hs;
            cp.blockLen = (uint16_t)(KB * sizeof(float) / 32);
            cp.srcStride = (uint16_t)((T - KB) * sizeof(float) / 32);
            cp.dstStride = 0;
            DataCopy(ktIn, ktGm[headOff + j0], cp);
            kvQ.EnQue(ktIn);
            LocalTensor<float> kt = kvQ.DeQue<float>();
            for (uint32_t r = 0; r < QB; ++r) {
                LocalTensor<float> srow = S[r * T + j0];
                Duplicate(srow, 0.0f, KB);
                for (uint32_t d = 0; d < hs; ++d) {
                    Axpy(srow, kt[d * KB], qL.GetValue(r * hs + d), KB);
                }
            }
            kvQ.FreeTensor(kt);
        }
        qQ.FreeTensor(qL);

        // ---- masked softmax, row r sees keys [0, q0 + r]
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        for (uint32_t r = 0; r < QB; ++r) {
            uint32_t len = q0 + r + 1;
            LocalTensor<float> srow = S[r * T];
            ReduceMax<float>(red, srow, work, len, false);
            Wait<HardEvent::V_S>();
            float mx = red.GetValue(0);
            Wait<HardEvent::S_V>();
            Adds(srow, srow, -mx, len);
            Exp(srow, srow, len);
            ReduceSum<float>(red, srow, work, len);
            Wait<HardEvent::V_S>();
            float inv = 1.0f / red.GetValue(0);
            Wait<HardEvent::S_V>();
            Muls(srow, srow, inv, len);
        }

        // ---- y = P @ V, masked positions are simply never visited
        LocalTensor<float> yL = yQ.AllocTensor<float>();
        Duplicate(yL, 0.0f, QB * hs);
        Wait<HardEvent::V_S>();
        for (uint32_t t = 0; t < tiles; ++t) {
            uint32_t j0 = t * KB;
            LocalTensor<float> vIn = kvQ.AllocTensor<float>();
            DataCopy(vIn, vGm[headOff + (uint64_t)j0 * hs], KB * hs);
            kvQ.EnQue(vIn);
            LocalTensor<float> vt = kvQ.DeQue<float>();
            for (uint32_t r = 0; r < QB; ++r) {
                uint32_t last = q0 + r + 1;                 // exclusive causal limit
                if (last <= j0) {
                    continue;
                }
                uint32_t cnt = (last - j0) < KB ? (last - j0) : KB;
                for (uint32_t j = 0; j < cnt; ++j) {
                    Axpy(yL[r * hs], vt[j * hs], S.GetValue(r * T + j0 + j), hs);
                }
            }
            kvQ.FreeTensor(vt);
        }
        yQ.EnQue(yL);
        LocalTensor<float> yOut = yQ.DeQue<float>();
        DataCopy(yGm[headOff + (uint64_t)q0 * hs], yOut, QB * hs);
        yQ.FreeTensor(yOut);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> qQ;
    TQue<QuePosition::VECIN, BUFFER_NUM> kvQ;
    TQue<QuePosition::VECOUT, 1> yQ;
    TBuf<QuePosition::VECCALC> scoreBuf, workBuf, redBuf;
    GlobalTensor<float> qGm, ktGm, vGm, yGm;
    uint32_t T, hs, QB, KB, qBlockNum, taskNum;
    float scale;
};

extern "C" __global__ __aicore__ void min_gpt_causal_attention_custom(GM_ADDR q, GM_ADDR k_t, GM_ADDR v, GM_ADDR y,
                                                                      GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelCausalAttn op;
    op.Init(q, k_t, v, y, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// c_attn / c_proj run on the NPU matmul path; the causal attention core is custom.
// Dropouts are p = 0.0 in this task and therefore omitted.
at::Tensor min_gpt_causal_attention_impl_npu(const at::Tensor& x,
                                             const at::Tensor& attn_w, const at::Tensor& attn_b,
                                             const at::Tensor& proj_w, const at::Tensor& proj_b,
                                             int64_t n_head)
{
    const int64_t B = x.size(0), T = x.size(1), C = x.size(2);
    const int64_t hs = C / n_head;
    at::Tensor qkv = at::linear(x, attn_w, attn_b);                 // (B, T, 3C)
    auto parts = qkv.split(C, 2);
    // (B, nh, T, hs) flattened to (B*nh, T, hs)
    at::Tensor q = parts[0].view({B, T, n_head, hs}).transpose(1, 2).reshape({B * n_head, T, hs}).contiguous();
    at::Tensor kt = parts[1].view({B, T, n_head, hs}).permute({0, 2, 3, 1}).reshape({B * n_head, hs, T}).contiguous();
    at::Tensor v = parts[2].view({B, T, n_head, hs}).transpose(1, 2).reshape({B * n_head, T, hs}).contiguous();
    at::Tensor y = at::empty_like(q);
    EXEC_NPU_CMD(aclnnMinGptCausalAttentionCustom, q, kt, v, y);
    y = y.view({B, n_head, T, hs}).transpose(1, 2).contiguous().view({B, T, C});
    return at::linear(y, proj_w, proj_b);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("min_gpt_causal_attention_custom", &min_gpt_causal_attention_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("min_gpt_causal_attention_custom", &min_gpt_causal_attention_impl_npu,
          "minGPT causal self-attention");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib


class ModelNew(nn.Module):
    def __init__(self, n_embd, n_head, attn_pdrop, resid_pdrop, max_seqlen):
        super().__init__()
        assert n_embd % n_head == 0
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)
        self.c_proj = nn.Linear(n_embd, n_embd)
        self.n_head = n_head
        self.n_embd = n_embd

    def forward(self, x):
        return custom_ops_lib.min_gpt_causal_attention_custom(
            x, self.c_attn.weight, self.c_attn.bias, self.c_proj.weight, self.c_proj.bias, self.n_head)
'''
