project_json_src='''
[
    {
        "op": "WindowedCausalAttentionCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "q", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "kt", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "v", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "out", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "window_size", "param_type": "optional", "type": "int", "default_value": "256"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(WindowedCausalAttentionCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batchHeads);   // B * H
  TILING_DATA_FIELD_DEF(uint32_t, seqLen);
  TILING_DATA_FIELD_DEF(uint32_t, headDim);
  TILING_DATA_FIELD_DEF(uint32_t, window);
  TILING_DATA_FIELD_DEF(uint32_t, queryBlock);   // queries per work item
  TILING_DATA_FIELD_DEF(uint32_t, keyCap);       // max keys (aligned) touched by one query block
  TILING_DATA_FIELD_DEF(uint32_t, blocksPerHead);
  TILING_DATA_FIELD_DEF(uint32_t, totalItems);
  TILING_DATA_FIELD_DEF(float, softmaxScale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(WindowedCausalAttentionCustom, WindowedCausalAttentionCustomTilingData)
}
"""

host_operator_src="""
#include "windowed_causal_attention_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include <cmath>

namespace optiling {
constexpr uint32_t QUERY_BLOCK = 32;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    WindowedCausalAttentionCustomTilingData t;
    auto qs = context->GetInputShape(0)->GetOriginShape();    // [B, H, N, dh]
    uint32_t b = qs.GetDim(0);
    uint32_t h = qs.GetDim(1);
    uint32_t n = qs.GetDim(2);
    uint32_t dh = qs.GetDim(3);
    uint32_t window = static_cast<uint32_t>(*context->GetAttrs()->GetAttrPointer<int64_t>(0));

    uint32_t qb = QUERY_BLOCK;
    // keys for a block: [q0 - window (aligned down to 8), q0 + qb)
    uint32_t keyCap = (qb + window + 8 + 7) / 8 * 8;
    uint32_t blocksPerHead = (n + qb - 1) / qb;

    t.set_batchHeads(b * h);
    t.set_seqLen(n);
    t.set_headDim(dh);
    t.set_window(window);
    t.set_queryBlock(qb);
    t.set_keyCap(keyCap);
    t.set_blocksPerHead(blocksPerHead);
    t.set_totalItems(b * h * blocksPerHead);
    t.set_softmaxScale(1.0f / std::sqrt(static_cast<float>(dh)));

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > b * h * blocksPerHead) cores = b * h * blocksPerHead;
    context->SetBlockDim(cores);

    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
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
class WindowedCausalAttentionCustom : public OpDef {
public:
    explicit WindowedCausalAttentionCustom(const char* name) : OpDef(name)
    {
        this->Input("q").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("kt").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("v").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("out").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("window_size").AttrType(OPTIONAL).Int(256);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(WindowedCausalAttentionCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr float NEG_BIG = -3.0e38f;

// Sliding-window causal attention, vector-unit implementation.
// Work item = (batch*head, block of QB queries). The key window of the whole block is
// loaded once: K^T slice [dh, keys] (K is pre-transposed on the host so that a score row
// is an Axpy over contiguous keys) and V slice [keys, dh].
class WindowedAttnKernel {
public:
    __aicore__ inline WindowedAttnKernel() {}
    __aicore__ inline void Init(GM_ADDR q, GM_ADDR kt, GM_ADDR v, GM_ADDR out,
                                const WindowedCausalAttentionCustomTilingData& t)
    {
        bh = t.batchHeads;
        seq = t.seqLen;
        dh = t.headDim;
        win = t.window;
        qb = t.queryBlock;
        kcap = t.keyCap;
        blocksPerHead = t.blocksPerHead;
        totalItems = t.totalItems;
        scale = t.softmaxScale;

        uint64_t elems = (uint64_t)bh * seq * dh;
        qGm.SetGlobalBuffer((__gm__ float*)q, elems);
        ktGm.SetGlobalBuffer((__gm__ float*)kt, elems);
        vGm.SetGlobalBuffer((__gm__ float*)v, elems);
        oGm.SetGlobalBuffer((__gm__ float*)out, elems);

        pipe.InitBuffer(ktQ, 1, dh * kcap * sizeof(float));
        pipe.InitBuffer(vQ, 1, kcap * dh * sizeof(float));
        pipe.InitBuffer(oQ, 1, qb * dh * sizeof(float));
        pipe.InitBuffer(scoreBuf, kcap * sizeof(float));
        pipe.InitBuffer(workBuf, kcap * sizeof(float));
        pipe.InitBuffer(redBuf, 16 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t item = GetBlockIdx(); item < totalItems; item += GetBlockNum()) {
            uint32_t head = item / blocksPerHead;
            uint32_t q0 = (item % blocksPerHead) * qb;
            uint32_t q1 = q0 + qb > seq ? seq : q0 + qb;
            uint32_t kFirst = q0 > win ? q0 - win : 0;
            kLo = kFirst / 8 * 8;
            kLen = q1 - kLo;
            kStride = (kLen + 7) / 8 * 8;
            LoadKV(head);
            Attend(head, q0, q1);
            StoreOut(head, q0, q1);
        }
    }

private:
    __aicore__ inline void VecToScalar()
    {
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
    }
    __aicore__ inline void ScalarToVec()
    {
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(e);
        WaitFlag<HardEvent::S_V>(e);
    }

    __aicore__ inline void LoadKV(uint32_t head)
    {
        uint64_t base = (uint64_t)head * seq * dh;
        LocalTensor<float> ktL = ktQ.AllocTensor<float>();
        LocalTensor<float> vL = vQ.AllocTensor<float>();
        // K^T: dh rows, each a run of kLen keys; row stride in UB padded to kStride
        DataCopyExtParams kp;
        kp.blockCount = static_cast<uint16_t>(dh);
        kp.blockLen = kLen * sizeof(float);
        kp.srcStride = (seq - kLen) * sizeof(float);
        kp.dstStride = 0;
        DataCopyPadExtParams<float> pad{true, 0, static_cast<uint8_t>(kStride - kLen), 0.0f};
        DataCopyPad(ktL, ktGm[base + kLo], kp, pad);
        // V: kLen contiguous rows of dh
        DataCopy(vL, vGm[base + (uint64_t)kLo * dh], kLen * dh);
        ktQ.EnQue(ktL);
        vQ.EnQue(vL);
    }

    __aicore__ inline void Attend(uint32_t head, uint32_t q0, uint32_t q1)
    {
        LocalTensor<float> ktL = ktQ.DeQue<float>();
        LocalTensor<float> vL = vQ.DeQue<float>();
        LocalTensor<float> oL = oQ.AllocTensor<float>();
        LocalTensor<float> sc = scoreBuf.Get<float>();
        LocalTensor<float> wk = workBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        uint64_t qBase = (uint64_t)head * seq * dh;

        for (uint32_t i = q0; i < q1; ++i) {
            uint32_t li = i - q0;
            // ---- scores = (q_i . K^T) * scale ----
            Duplicate(sc, 0.0f, kStride);
            for (uint32_t d = 0; d < dh; ++d) {
                float qd = qGm.GetValue(qBase + (uint64_t)i * dh + d) * scale;
                Axpy(sc, ktL[d * kStride], qd, kStride);
            }
            // ---- mask keys outside [i - win, i] ----
            uint32_t lo = (i > win ? i - win : 0) - kLo;
            uint32_t hi = i - kLo;
            VecToScalar();
            for (uint32_t j = 0; j < lo; ++j) {
                sc.SetValue(j, NEG_BIG);
            }
            for (uint32_t j = hi + 1; j < kStride; ++j) {
                sc.SetValue(j, NEG_BIG);
            }
            ScalarToVec();

            // ---- softmax ----
            ReduceMax(red, sc, wk, kStride, false);
            VecToScalar();
            float mx = red.GetValue(0);
            ScalarToVec();
            Adds(sc, sc, -mx, kStride);
            Exp(sc, sc, kStride);
            ReduceSum(red[8], sc, wk, kStride);
            VecToScalar();
            float denom = red.GetValue(8);

            // ---- o_i = sum_k p_k * v_k ----
            LocalTensor<float> orow = oL[li * dh];
            Duplicate(orow, 0.0f, dh);
            for (uint32_t j = lo; j <= hi; ++j) {
                float p = sc.GetValue(j);
                Axpy(orow, vL[j * dh], p, dh);
            }
            Muls(orow, orow, 1.0f / denom, dh);
        }
        ktQ.FreeTensor(ktL);
        vQ.FreeTensor(vL);
        oQ.EnQue(oL);
    }

    __aicore__ inline void StoreOut(uint32_t head, uint32_t q0, uint32_t q1)
    {
        LocalTensor<float> oL = oQ.DeQue<float>();
        DataCopy(oGm[(uint64_t)head * seq * dh + (uint64_t)q0 * dh], oL, (q1 - q0) * dh);
        oQ.FreeTensor(oL);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 1> ktQ, vQ;
    TQue<QuePosition::VECOUT, 1> oQ;
    TBuf<QuePosition::VECCALC> scoreBuf, workBuf, redBuf;
    GlobalTensor<float> qGm, ktGm, vGm, oGm;
    uint32_t bh, seq, dh, win, qb, kcap, blocksPerHead, totalItems;
    uint32_t kLo, kLen, kStride;
    float scale;
};

extern "C" __global__ __aicore__ void windowed_causal_attention_custom(GM_ADDR q, GM_ADDR kt, GM_ADDR v,
                                                                       GM_ADDR out, GM_ADDR workspace,
                                                                       GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    WindowedAttnKernel op;
    op.Init(q, kt, v, out, t);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// Projections run as regular linear layers; the windowed attention core is the custom op.
at::Tensor windowed_causal_attention_impl_npu(const at::Tensor& x,
                                              const at::Tensor& wq, const at::Tensor& bq,
                                              const at::Tensor& wk, const at::Tensor& bk,
                                              const at::Tensor& wv, const at::Tensor& bv,
                                              const at::Tensor& wo, const at::Tensor& bo,
                                              int64_t num_heads, int64_t window_size)
{
    int64_t B = x.size(0), N = x.size(1), D = x.size(2);
    int64_t dh = D / num_heads;
    at::Tensor q = at::linear(x, wq, bq).view({B, N, num_heads, dh}).permute({0, 2, 1, 3}).contiguous();
    at::Tensor kt = at::linear(x, wk, bk).view({B, N, num_heads, dh}).permute({0, 2, 3, 1}).contiguous();
    at::Tensor v = at::linear(x, wv, bv).view({B, N, num_heads, dh}).permute({0, 2, 1, 3}).contiguous();
    at::Tensor o = at::empty_like(q);
    EXEC_NPU_CMD(aclnnWindowedCausalAttentionCustom, q, kt, v, window_size, o);
    at::Tensor merged = o.permute({0, 2, 1, 3}).reshape({B, N, D});
    return at::linear(merged, wo, bo);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("windowed_causal_attention_custom", &windowed_causal_attention_impl_npu,
          "sliding-window causal attention");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, d_model=1024, num_heads=16, window_size=256):
        super().__init__()
        self.q_proj = torch.nn.Linear(d_model, d_model)
        self.k_proj = torch.nn.Linear(d_model, d_model)
        self.v_proj = torch.nn.Linear(d_model, d_model)
        self.out_proj = torch.nn.Linear(d_model, d_model)
        self.num_heads = num_heads
        self.window_size = window_size

    def forward(self, x):
        return custom_ops_lib.windowed_causal_attention_custom(
            x,
            self.q_proj.weight, self.q_proj.bias,
            self.k_proj.weight, self.k_proj.bias,
            self.v_proj.weight, self.v_proj.bias,
            self.out_proj.weight, self.out_proj.bias,
            self.num_heads, self.window_size)
'''
