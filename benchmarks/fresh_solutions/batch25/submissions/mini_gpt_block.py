project_json_src='''
[
    {
        "op": "MiniGptBlockCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "scores", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "probs", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "scale", "param_type": "required", "type": "float"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MiniGptBlockCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, seqLen);        // T (row length and causal period)
  TILING_DATA_FIELD_DEF(uint32_t, totalRows);     // B * nh * T
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, rowsTail);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MiniGptBlockCustom, MiniGptBlockCustomTilingData)
}
"""

host_operator_src="""
#include "mini_gpt_block_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_BYTES = 32 * 1024;

static ge::graphStatus TilingFunc(gert::TilingContext* ctx)
{
    MiniGptBlockCustomTilingData td;
    const auto& shp = ctx->GetInputShape(0)->GetStorageShape();   // (..., T, T)
    uint32_t dims = shp.GetDimNum();
    uint32_t T = shp.GetDim(dims - 1);
    uint32_t rows = shp.GetShapeSize() / T;

    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores == 0) cores = 1;
    if (cores > rows) cores = rows;

    uint32_t rowsPerTile = TILE_BYTES / (T * sizeof(float));
    if (rowsPerTile == 0) rowsPerTile = 1;

    td.set_seqLen(T);
    td.set_totalRows(rows);
    td.set_rowsPerCore(rows / cores);
    td.set_rowsTail(rows % cores);
    td.set_rowsPerTile(rowsPerTile);
    td.set_scale(*ctx->GetAttrs()->GetAttrPointer<float>(0));

    ctx->SetBlockDim(cores);
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
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class MiniGptBlockCustom : public OpDef {
public:
    explicit MiniGptBlockCustom(const char* name) : OpDef(name)
    {
        this->Input("scores").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("probs").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("scale").Float();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MiniGptBlockCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr float MASK_VALUE = -3.0e38f;   // stands in for -inf, exp() of it underflows to 0

// Fused attention-probability kernel of the block:
//   p = softmax(mask_causal(q k^T * scale))
// Row r of the flattened (B*nh*T, T) score matrix is query position r % T,
// so columns > r % T are masked. Masking is done with a column-index ramp,
// CompareScalar(<= qpos) and Select against a large negative constant.
class KernelCausalSoftmax {
public:
    __aicore__ inline KernelCausalSoftmax() {}
    __aicore__ inline void Init(GM_ADDR s, GM_ADDR p, uint32_t T, uint32_t perCore, uint32_t tail,
                                uint32_t rowsPerTile, float scale)
    {
        seq = T;
        this->scale = scale;
        this->rowsPerTile = rowsPerTile;
        uint32_t id = GetBlockIdx();
        rowCnt = perCore + (id < tail ? 1 : 0);
        rowBeg = id * perCore + (id < tail ? id : tail);

        sGm.SetGlobalBuffer((__gm__ float*)s + (uint64_t)rowBeg * T, (uint64_t)rowCnt * T);
        pGm.SetGlobalBuffer((__gm__ float*)p + (uint64_t)rowBeg * T, (uint64_t)rowCnt * T);

        pipe.InitBuffer(inQ, 2, rowsPerTile * T * sizeof(float));
        pipe.InitBuffer(outQ, 2, rowsPerTile * T * sizeof(float));
        pipe.InitBuffer(idxBuf, T * sizeof(float));
        pipe.InitBuffer(selBuf, (T / 8 + 32) * sizeof(uint8_t));
        pipe.InitBuffer(redBuf, (T + 64) * sizeof(float));   // [0..63]: result, [64..]: reduce workspace
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> idx = idxBuf.Get<float>();
        ArithProgression<float>(idx, 0.0f, 1.0f, seq);   // 0, 1, ..., T-1
        PipeBarrier<PIPE_V>();

        for (uint32_t r0 = 0; r0 < rowCnt; r0 += rowsPerTile) {
            uint32_t n = rowCnt - r0;
            if (n > rowsPerTile) n = rowsPerTile;

            LocalTensor<float> in = inQ.AllocTensor<float>();
            DataCopy(in, sGm[(uint64_t)r0 * seq], n * seq);
            inQ.EnQue(in);

            in = inQ.DeQue<float>();
            LocalTensor<float> out = outQ.AllocTensor<float>();
            for (uint32_t i = 0; i < n; ++i) {
                uint32_t qpos = (rowBeg + r0 + i) % seq;
                RowSoftmax(out[i * seq], in[i * seq], idx, qpos);
            }
            outQ.EnQue(out);
            inQ.FreeTensor(in);

            out = outQ.DeQue<float>();
            DataCopy(pGm[(uint64_t)r0 * seq], out, n * seq);
            outQ.FreeTensor(out);
        }
    }

private:
    __aicore__ inline float ScalarOf(const LocalTensor<float>& t)
    {
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
        return t.GetValue(0);
    }

    __aicore__ inline void RowSoftmax(const LocalTensor<float>& dst, const LocalTensor<float>& src,
                                      const LocalTensor<float>& idx, uint32_t qpos)
    {
        LocalTensor<uint8_t> sel = selBuf.Get<uint8_t>();
        LocalTensor<float> red = redBuf.Get<float>();

        Muls(dst, src, scale, seq);
        CompareScalar(sel, idx, static_cast<float>(qpos), CMPMODE::LE, seq);
        Select(dst, sel, dst, MASK_VALUE, SELMODE::VSEL_TENSOR_SCALAR_MODE, seq);

        // only columns [0, qpos] can hold the max; reducing the full row is still correct
        ReduceMax<float>(red, dst, red[64], seq, false);
        float mx = ScalarOf(red);
        Adds(dst, dst, -mx, seq);
        Exp(dst, dst, seq);
        ReduceSum<float>(red, dst, red[64], seq);
        float sum = ScalarOf(red);
        Muls(dst, dst, 1.0f / sum, seq);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<QuePosition::VECCALC> idxBuf, selBuf, redBuf;
    GlobalTensor<float> sGm, pGm;
    uint32_t seq, rowCnt, rowBeg, rowsPerTile;
    float scale;
};

extern "C" __global__ __aicore__ void mini_gpt_block_custom(GM_ADDR scores, GM_ADDR probs,
                                                            GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelCausalSoftmax op;
    op.Init(scores, probs, td.seqLen, td.rowsPerCore, td.rowsTail, td.rowsPerTile, td.scale);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <cmath>

// causal masked, scaled softmax through the custom kernel
static at::Tensor causal_softmax(const at::Tensor& scores, float scale)
{
    at::Tensor s = scores.contiguous();
    at::Tensor p = at::empty_like(s);
    EXEC_NPU_CMD(aclnnMiniGptBlockCustom, s, scale, p);
    return p;
}

at::Tensor mini_gpt_block_custom_impl_npu(
    const at::Tensor& x,
    const at::Tensor& ln1_w, const at::Tensor& ln1_b,
    const at::Tensor& attn_w, const at::Tensor& attn_b,
    const at::Tensor& attn_proj_w, const at::Tensor& attn_proj_b,
    const at::Tensor& ln2_w, const at::Tensor& ln2_b,
    const at::Tensor& fc_w, const at::Tensor& fc_b,
    const at::Tensor& mlp_proj_w, const at::Tensor& mlp_proj_b,
    int64_t n_head)
{
    const int64_t B = x.size(0);
    const int64_t T = x.size(1);
    const int64_t C = x.size(2);
    const int64_t hs = C / n_head;
    TORCH_CHECK(T % 64 == 0, "seq_len must be a multiple of 64 for the softmax kernel");

    // ---- attention ----
    at::Tensor h = at::layer_norm(x, {C}, ln1_w, ln1_b, 1e-5);
    at::Tensor qkv = at::linear(h, attn_w, attn_b);
    auto parts = qkv.split(C, 2);
    at::Tensor q = parts[0].view({B, T, n_head, hs}).transpose(1, 2).reshape({B * n_head, T, hs});
    at::Tensor k = parts[1].view({B, T, n_head, hs}).transpose(1, 2).reshape({B * n_head, T, hs});
    at::Tensor v = parts[2].view({B, T, n_head, hs}).transpose(1, 2).reshape({B * n_head, T, hs});

    at::Tensor att = at::bmm(q, k.transpose(1, 2));                       // (B*nh, T, T)
    att = causal_softmax(att, static_cast<float>(1.0 / std::sqrt(static_cast<double>(hs))));
    at::Tensor y = at::bmm(att, v);                                       // (B*nh, T, hs)
    y = y.view({B, n_head, T, hs}).transpose(1, 2).contiguous().view({B, T, C});
    at::Tensor x1 = x + at::linear(y, attn_proj_w, attn_proj_b);

    // ---- MLP (NewGELU == tanh-approximate GELU) ----
    at::Tensor h2 = at::layer_norm(x1, {C}, ln2_w, ln2_b, 1e-5);
    at::Tensor m = at::gelu(at::linear(h2, fc_w, fc_b), "tanh");
    return x1 + at::linear(m, mlp_proj_w, mlp_proj_b);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("mini_gpt_block_custom", &mini_gpt_block_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("mini_gpt_block_custom", &mini_gpt_block_custom_impl_npu, "minGPT transformer block");
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
        self.n_head = n_head
        self.ln_1 = nn.LayerNorm(n_embd)
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)
        self.c_proj = nn.Linear(n_embd, n_embd)
        self.ln_2 = nn.LayerNorm(n_embd)
        self.c_fc = nn.Linear(n_embd, 4 * n_embd)
        self.mlp_proj = nn.Linear(4 * n_embd, n_embd)

    def forward(self, x):
        return custom_ops_lib.mini_gpt_block_custom(
            x,
            self.ln_1.weight, self.ln_1.bias,
            self.c_attn.weight, self.c_attn.bias,
            self.c_proj.weight, self.c_proj.bias,
            self.ln_2.weight, self.ln_2.bias,
            self.c_fc.weight, self.c_fc.bias,
            self.mlp_proj.weight, self.mlp_proj.bias,
            self.n_head)
'''
