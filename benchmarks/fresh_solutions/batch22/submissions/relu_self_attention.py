project_json_src='''
[
    {
        "op": "ReluSelfAttentionCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "q", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "k", "param_type": "required", "format": ["ND"], "type": ["float"]},
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
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ReluSelfAttentionCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, heads);      // B * n_head
  TILING_DATA_FIELD_DEF(uint32_t, seqLen);     // T
  TILING_DATA_FIELD_DEF(uint32_t, headDim);    // hs
  TILING_DATA_FIELD_DEF(uint32_t, blockRows);  // query rows per task
  TILING_DATA_FIELD_DEF(float, scale);         // 1/sqrt(hs)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, qkTiling);   // S = Q K^T
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, pvTiling);   // Y = relu(S) V
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ReluSelfAttentionCustom, ReluSelfAttentionCustomTilingData)
}
"""

host_operator_src="""
#include <cmath>
#include "relu_self_attention_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

using namespace matmul_tiling;

namespace optiling {
constexpr uint32_t BLOCK_ROWS = 64;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ReluSelfAttentionCustomTilingData td;
    auto qs = context->GetInputShape(0)->GetStorageShape();   // (B*nh, T, hs)
    uint32_t heads = qs.GetDim(0);
    uint32_t T = qs.GetDim(1);
    uint32_t hs = qs.GetDim(2);
    uint32_t bm = T < BLOCK_ROWS ? T : BLOCK_ROWS;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());

    // S_blk (bm x T) = Q_blk (bm x hs) * K^T (hs x T); actual N is set per block with SetTail
    MatmulApiTiling qk(plat);
    qk.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, false);
    qk.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, true);
    qk.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    qk.SetShape(bm, T, hs);
    qk.SetOrgShape(bm, T, hs);
    qk.SetBias(false);
    qk.SetBufferSpace(-1, -1, -1);
    if (qk.GetTiling(td.qkTiling) == -1) return ge::GRAPH_FAILED;

    // Y_blk (bm x hs) = P_blk (bm x T, pitch T) * V (T x hs)
    MatmulApiTiling pv(plat);
    pv.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, false);
    pv.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, false);
    pv.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    pv.SetShape(bm, hs, T);
    pv.SetOrgShape(bm, hs, T);
    pv.SetBias(false);
    pv.SetBufferSpace(-1, -1, -1);
    if (pv.GetTiling(td.pvTiling) == -1) return ge::GRAPH_FAILED;

    td.set_heads(heads);
    td.set_seqLen(T);
    td.set_headDim(hs);
    td.set_blockRows(bm);
    td.set_scale(1.0f / std::sqrt(static_cast<float>(hs)));

    uint32_t aicNum = plat.GetCoreNumAic();
    uint32_t aivNum = plat.GetCoreNumAiv();
    context->SetBlockDim(aicNum);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    // one bm x T score scratch per vector core
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize() + (size_t)aivNum * bm * T * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ReluSelfAttentionCustom : public OpDef {
public:
    explicit ReluSelfAttentionCustom(const char* name) : OpDef(name)
    {
        this->Input("q").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("k").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
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
OP_ADD(ReluSelfAttentionCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

using AT  = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BTT = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
using BT  = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
using CT  = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;

// Causal ReLU attention, one task = (head, block of bm query rows).
//   S   = Q_blk K[:cols]^T        (cube, into per-core scratch, row pitch T)
//   P   = relu(S * scale) masked  (vector, in place)
//   Y   = P V[:cols]              (cube, straight into the output)
// cols = r0 + bm: keys past the last query of the block are causally masked anyway,
// so we never compute them. Masked entries are -inf before ReLU, i.e. exactly 0 after.
class ReluAttnKernel {
public:
    __aicore__ inline ReluAttnKernel() {}
    __aicore__ inline void Init(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR y, GM_ADDR ws,
                                const ReluSelfAttentionCustomTilingData &td)
    {
        heads = td.heads; T = td.seqLen; hs = td.headDim; bm = td.blockRows; scale = td.scale;
        qGm.SetGlobalBuffer((__gm__ float *)q);
        kGm.SetGlobalBuffer((__gm__ float *)k);
        vGm.SetGlobalBuffer((__gm__ float *)v);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        coreIdx = GetBlockIdx();
        coreCnt = GetBlockNum() * GetTaskRation();
        sGm.SetGlobalBuffer((__gm__ float *)ws + (uint64_t)coreIdx * bm * T);

        pipe.InitBuffer(rowQ, 2, T * sizeof(float));
        pipe.InitBuffer(maskBuf, bm * bm * sizeof(float));
    }

    __aicore__ inline void BuildMask()
    {
        // lower-triangular ones of bm x bm: row i keeps columns 0..i
        LocalTensor<float> m = maskBuf.Get<float>();
        Duplicate(m, 0.0f, bm * bm);
        PipeBarrier<PIPE_V>();
        for (uint32_t i = 0; i < bm; ++i) {
            Duplicate(m[i * bm], 1.0f, i + 1);
        }
        PipeBarrier<PIPE_V>();
    }

    template <typename MM1, typename MM2>
    __aicore__ inline void Process(MM1 &mmQK, MM2 &mmPV)
    {
        BuildMask();
        uint32_t blocksPerHead = (T + bm - 1) / bm;
        uint32_t total = heads * blocksPerHead;
        for (uint32_t task = coreIdx; task < total; task += coreCnt) {
            uint32_t h = task / blocksPerHead;
            uint32_t r0 = (task % blocksPerHead) * bm;
            uint32_t rows = (r0 + bm > T) ? (T - r0) : bm;
            uint32_t cols = r0 + rows;
            uint64_t headOff = (uint64_t)h * T * hs;

            // S = Q K^T
            mmQK.SetTensorA(qGm[headOff + (uint64_t)r0 * hs]);
            mmQK.SetTensorB(kGm[headOff], true);
            mmQK.SetTail(rows, cols, hs);
            mmQK.IterateAll(sGm);
            mmQK.End();
            PipeBarrier<PIPE_ALL>();

            ScaleMaskRelu(r0, rows, cols);
            PipeBarrier<PIPE_ALL>();

            // Y = P V
            mmPV.SetTensorA(sGm);
            mmPV.SetTensorB(vGm[headOff]);
            mmPV.SetTail(rows, hs, cols);
            mmPV.IterateAll(yGm[headOff + (uint64_t)r0 * hs]);
            mmPV.End();
            PipeBarrier<PIPE_ALL>();
        }
    }

private:
    __aicore__ inline void ScaleMaskRelu(uint32_t r0, uint32_t rows, uint32_t cols)
    {
        LocalTensor<float> mask = maskBuf.Get<float>();
        DataCopyExtParams cp{1, cols * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pp{false, 0, 0, 0.0f};
        for (uint32_t i = 0; i < rows; ++i) {
            LocalTensor<float> row = rowQ.AllocTensor<float>();
            DataCopyPad(row, sGm[(uint64_t)i * T], cp, pp);
            rowQ.EnQue(row);
            row = rowQ.DeQue<float>();
            Muls(row, row, scale, cols);
            Relu(row, row, cols);
            // diagonal block: zero keys j > r0 + i
            Mul(row[r0], row[r0], mask[i * bm], cols - r0);
            event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_MTE3));
            SetFlag<HardEvent::V_MTE3>(e);
            WaitFlag<HardEvent::V_MTE3>(e);
            DataCopyPad(sGm[(uint64_t)i * T], row, cp);
            rowQ.FreeTensor(row);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> rowQ;
    TBuf<QuePosition::VECCALC> maskBuf;
    GlobalTensor<float> qGm, kGm, vGm, yGm, sGm;
    uint32_t heads, T, hs, bm, coreIdx, coreCnt;
    float scale;
public:
    __aicore__ inline TPipe *GetPipe() { return &pipe; }
};

extern "C" __global__ __aicore__ void relu_self_attention_custom(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR y,
                                                                 GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR usr = GetUserWorkspace(workspace);
    if (usr == nullptr) return;

    ReluAttnKernel op;
    matmul::Matmul<AT, BTT, CT, CT> mmQK;
    matmul::Matmul<AT, BT, CT, CT> mmPV;
    REGIST_MATMUL_OBJ(op.GetPipe(), GetSysWorkSpacePtr(), mmQK, &td.qkTiling, mmPV, &td.pvTiling);
    op.Init(q, k, v, y, usr, td);
    op.Process(mmQK, mmPV);
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// Full block: c_attn projection with at::linear, head split, then the custom causal ReLU attention.
at::Tensor relu_self_attention_impl_npu(const at::Tensor& x, const at::Tensor& w_attn,
                                        const at::Tensor& b_attn, int64_t n_head)
{
    const int64_t B = x.size(0), T = x.size(1), C = x.size(2);
    const int64_t hs = C / n_head;
    at::Tensor qkv = at::linear(x, w_attn, b_attn);              // (B, T, 3C)
    auto parts = qkv.split(C, 2);
    auto to_heads = [&](const at::Tensor& t) {
        return t.view({B, T, n_head, hs}).transpose(1, 2).contiguous().view({B * n_head, T, hs});
    };
    at::Tensor q = to_heads(parts[0]);
    at::Tensor k = to_heads(parts[1]);
    at::Tensor v = to_heads(parts[2]);
    at::Tensor y = at::empty_like(q);
    EXEC_NPU_CMD(aclnnReluSelfAttentionCustom, q, k, v, y);
    return y.view({B, n_head, T, hs}).transpose(1, 2).contiguous().view({B, T, C});
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("relu_self_attention_custom", &relu_self_attention_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("relu_self_attention_custom", &relu_self_attention_impl_npu, "causal ReLU self-attention");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, n_embd, n_head, max_seqlen):
        super().__init__()
        self.c_attn = torch.nn.Linear(n_embd, 3 * n_embd)
        self.c_proj = torch.nn.Linear(n_embd, n_embd)
        self.register_buffer("bias", torch.tril(torch.ones(max_seqlen, max_seqlen))
                                     .view(1, 1, max_seqlen, max_seqlen))
        self.n_head = n_head
        self.n_embd = n_embd

    def forward(self, x):
        return custom_ops_lib.relu_self_attention_custom(x, self.c_attn.weight, self.c_attn.bias, self.n_head)
'''
