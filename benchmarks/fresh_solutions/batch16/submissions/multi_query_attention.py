project_json_src='''
[
    {
        "op": "MultiQueryAttentionCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "query", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "key", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "value", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "out", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "num_heads", "param_type": "required", "type": "int"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MultiQueryAttentionCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, seqLen);
  TILING_DATA_FIELD_DEF(uint32_t, numHeads);
  TILING_DATA_FIELD_DEF(uint32_t, headDim);
  TILING_DATA_FIELD_DEF(uint32_t, keyTile);
  TILING_DATA_FIELD_DEF(uint32_t, keyTileNum);
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MultiQueryAttentionCustom, MultiQueryAttentionCustomTilingData)
}
"""

host_operator_src="""
#include "multi_query_attention_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include <cmath>

namespace optiling {
// 64 fp32 keys == one 256B vector repeat, so per-head reductions are a single WholeReduce
constexpr uint32_t KEY_TILE = 64;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    MultiQueryAttentionCustomTilingData tiling;
    auto qShape = context->GetInputShape(0)->GetStorageShape();   // (B, N, D)
    auto kShape = context->GetInputShape(1)->GetStorageShape();   // (B, N, dh)
    uint32_t batch = qShape.GetDim(0);
    uint32_t seq = qShape.GetDim(1);
    uint32_t dModel = qShape.GetDim(2);
    uint32_t headDim = kShape.GetDim(2);
    uint32_t heads = (uint32_t)(*context->GetAttrs()->GetAttrPointer<int64_t>(0));
    if (heads == 0 || heads * headDim != dModel || seq % KEY_TILE != 0 || headDim % 64 != 0) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = plat.GetCoreNumAiv();
    uint32_t units = batch * seq;
    context->SetBlockDim(units < coreNum ? units : coreNum);

    tiling.set_batch(batch);
    tiling.set_seqLen(seq);
    tiling.set_numHeads(heads);
    tiling.set_headDim(headDim);
    tiling.set_keyTile(KEY_TILE);
    tiling.set_keyTileNum(seq / KEY_TILE);
    tiling.set_scale(1.0f / std::sqrt((float)headDim));
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
class MultiQueryAttentionCustom : public OpDef {
public:
    explicit MultiQueryAttentionCustom(const char* name) : OpDef(name)
    {
        this->Input("query").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("key").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("value").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("out").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("num_heads").Int();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MultiQueryAttentionCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t KT = 64;   // keys per tile, must match host KEY_TILE

// Multi-query attention core: all H query heads at one position share the single K/V head,
// so a work unit is one (b, n) position with its H x dh query block. Keys are streamed in
// tiles of 64 with an online (flash-style) softmax, fully on the vector unit:
//   S[h][j]  = <q_h, k_j>            Mul (broadcast q_h over rows) + fold halves + WholeReduceSum
//   m, l     = running max / denominator per head (vectors of length H)
//   O[h]    += p[h][j] * v_j         Axpy
class KernelMQA {
public:
    __aicore__ inline KernelMQA() {}
    __aicore__ inline void Init(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR o,
                                const MultiQueryAttentionCustomTilingData& td)
    {
        B = td.batch;
        N = td.seqLen;
        H = td.numHeads;
        dh = td.headDim;
        tiles = td.keyTileNum;
        scale = td.scale;
        D = H * dh;

        qGm.SetGlobalBuffer((__gm__ float*)q, (uint64_t)B * N * D);
        oGm.SetGlobalBuffer((__gm__ float*)o, (uint64_t)B * N * D);
        kGm.SetGlobalBuffer((__gm__ float*)k, (uint64_t)B * N * dh);
        vGm.SetGlobalBuffer((__gm__ float*)v, (uint64_t)B * N * dh);

        pipe.InitBuffer(qQue, 1, D * sizeof(float));
        pipe.InitBuffer(oQue, 1, D * sizeof(float));
        pipe.InitBuffer(kQue, 1, KT * dh * sizeof(float));
        pipe.InitBuffer(vQue, 1, KT * dh * sizeof(float));
        pipe.InitBuffer(prodBuf, KT * dh * sizeof(float));
        pipe.InitBuffer(scoreBuf, H * KT * sizeof(float));
        uint32_t hA = (H + 7) / 8 * 8;
        pipe.InitBuffer(mBuf, hA * sizeof(float));
        pipe.InitBuffer(lBuf, hA * sizeof(float));
        pipe.InitBuffer(tmaxBuf, hA * sizeof(float));
        pipe.InitBuffer(alphaBuf, hA * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t units = B * N;
        for (uint32_t u = GetBlockIdx(); u < units; u += GetBlockNum()) {
            uint32_t b = u / N;
            RunPosition(b, u);
        }
    }

private:
    __aicore__ inline void SyncVS()
    {
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
    }
    __aicore__ inline void SyncSV()
    {
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(e);
        WaitFlag<HardEvent::S_V>(e);
    }

    __aicore__ inline void RunPosition(uint32_t b, uint32_t pos)
    {
        // query block (H x dh), pre-scaled by 1/sqrt(dh)
        LocalTensor<float> qIn = qQue.AllocTensor<float>();
        DataCopy(qIn, qGm[(uint64_t)pos * D], D);
        qQue.EnQue(qIn);
        LocalTensor<float> qL = qQue.DeQue<float>();
        Muls(qL, qL, scale, D);

        LocalTensor<float> oL = oQue.AllocTensor<float>();
        LocalTensor<float> mL = mBuf.Get<float>();
        LocalTensor<float> lL = lBuf.Get<float>();
        Duplicate(oL, 0.0f, D);
        Duplicate(mL, -3.0e38f, H);
        Duplicate(lL, 0.0f, H);

        uint64_t kvBase = (uint64_t)b * N * dh;
        for (uint32_t t = 0; t < tiles; ++t) {
            LocalTensor<float> kIn = kQue.AllocTensor<float>();
            LocalTensor<float> vIn = vQue.AllocTensor<float>();
            DataCopy(kIn, kGm[kvBase + (uint64_t)t * KT * dh], KT * dh);
            DataCopy(vIn, vGm[kvBase + (uint64_t)t * KT * dh], KT * dh);
            kQue.EnQue(kIn);
            vQue.EnQue(vIn);
            LocalTensor<float> kL = kQue.DeQue<float>();
            LocalTensor<float> vL = vQue.DeQue<float>();
            ScoreTile(qL, kL);
            SoftmaxUpdate(oL, vL);
            kQue.FreeTensor(kL);
            vQue.FreeTensor(vL);
        }

        // O[h] /= l[h]
        SyncVS();
        for (uint32_t h = 0; h < H; ++h) {
            float inv = 1.0f / lL.GetValue(h);
            SyncSV();
            Muls(oL[h * dh], oL[h * dh], inv, dh);
        }
        qQue.FreeTensor(qL);
        oQue.EnQue(oL);
        LocalTensor<float> oOut = oQue.DeQue<float>();
        DataCopy(oGm[(uint64_t)pos * D], oOut, D);
        oQue.FreeTensor(oOut);
    }

    // scores[h][j] = sum_d q[h][d] * k[j][d] for the 64 keys of this tile
    __aicore__ inline void ScoreTile(LocalTensor<float>& qL, LocalTensor<float>& kL)
    {
        LocalTensor<float> prod = prodBuf.Get<float>();
        LocalTensor<float> sc = scoreBuf.Get<float>();
        uint8_t rowBlocks = (uint8_t)(dh / 8);          // one key row in 32B blocks
        uint32_t chunks = dh / 64;
        for (uint32_t h = 0; h < H; ++h) {
            // prod[j][c*64 : c*64+64] = k[j][...] * q_h[...]  (q chunk broadcast over 64 rows)
            for (uint32_t c = 0; c < chunks; ++c) {
                Mul(prod[c * 64], kL[c * 64], qL[h * dh + c * 64], (uint64_t)64, (uint8_t)KT,
                    {1, 1, 1, rowBlocks, rowBlocks, 0});
            }
            // fold the dh/64 chunks of every row onto chunk 0
            for (uint32_t c = 1; c < chunks; ++c) {
                Add(prod, prod, prod[c * 64], (uint64_t)64, (uint8_t)KT,
                    {1, 1, 1, rowBlocks, rowBlocks, rowBlocks});
            }
            WholeReduceSum<float>(sc[h * KT], prod, 64, (int32_t)KT, 1, 1, rowBlocks);
        }
    }

    __aicore__ inline void SoftmaxUpdate(LocalTensor<float>& oL, LocalTensor<float>& vL)
    {
        LocalTensor<float> sc = scoreBuf.Get<float>();
        LocalTensor<float> mL = mBuf.Get<float>();
        LocalTensor<float> lL = lBuf.Get<float>();
        LocalTensor<float> tmax = tmaxBuf.Get<float>();
        LocalTensor<float> alpha = alphaBuf.Get<float>();

        // tile max per head (one repeat == one head row)
        WholeReduceMax<float>(tmax, sc, 64, (int32_t)H, 1, 1, 8, ReduceOrder::ORDER_ONLY_VALUE);
        Max(tmax, tmax, mL, H);                 // new running max
        Sub(alpha, mL, tmax, H);
        Exp(alpha, alpha, H);                   // rescale factor for old state
        DataCopy(mL, tmax, (H + 7) / 8 * 8);

        SyncVS();
        for (uint32_t h = 0; h < H; ++h) {
            float mh = tmax.GetValue(h);
            float ah = alpha.GetValue(h);
            SyncSV();
            Adds(sc[h * KT], sc[h * KT], -mh, KT);
            Muls(oL[h * dh], oL[h * dh], ah, dh);
        }
        Exp(sc, sc, H * KT);

        // l = l * alpha + rowsum(p)
        Mul(lL, lL, alpha, H);
        WholeReduceSum<float>(tmax, sc, 64, (int32_t)H, 1, 1, 8);
        Add(lL, lL, tmax, H);

        // O[h] += sum_j p[h][j] * v[j]
        SyncVS();
        for (uint32_t h = 0; h < H; ++h) {
            for (uint32_t j = 0; j < KT; ++j) {
                float p = sc.GetValue(h * KT + j);
                Axpy(oL[h * dh], vL[j * dh], p, dh);
            }
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> qQue, kQue, vQue;
    TQue<QuePosition::VECOUT, 1> oQue;
    TBuf<QuePosition::VECCALC> prodBuf, scoreBuf, mBuf, lBuf, tmaxBuf, alphaBuf;
    GlobalTensor<float> qGm, kGm, vGm, oGm;
    uint32_t B, N, H, dh, D, tiles;
    float scale;
};

extern "C" __global__ __aicore__ void multi_query_attention_custom(GM_ADDR query, GM_ADDR key, GM_ADDR value,
                                                                   GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelMQA op;
    op.Init(query, key, value, out, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// projections stay on the matmul library, the attention core is the custom kernel
at::Tensor multi_query_attention_impl_npu(const at::Tensor& x,
                                          const at::Tensor& wq, const at::Tensor& bq,
                                          const at::Tensor& wk, const at::Tensor& bk,
                                          const at::Tensor& wv, const at::Tensor& bv,
                                          const at::Tensor& wo, const at::Tensor& bo,
                                          int64_t num_heads)
{
    at::Tensor q = at::linear(x, wq, bq).contiguous();   // (B, N, D) == (B, N, H, dh)
    at::Tensor k = at::linear(x, wk, bk).contiguous();   // (B, N, dh) shared head
    at::Tensor v = at::linear(x, wv, bv).contiguous();
    at::Tensor attn = at::empty_like(q);
    EXEC_NPU_CMD(aclnnMultiQueryAttentionCustom, q, k, v, num_heads, attn);
    return at::linear(attn, wo, bo);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("multi_query_attention_custom", &multi_query_attention_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("multi_query_attention_custom", &multi_query_attention_impl_npu, "multi-query attention");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib


class ModelNew(nn.Module):
    def __init__(self, d_model=4096, num_heads=32):
        super().__init__()
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model // num_heads)
        self.v_proj = nn.Linear(d_model, d_model // num_heads)
        self.out_proj = nn.Linear(d_model, d_model)
        self.num_heads = num_heads

    def forward(self, x):
        return custom_ops_lib.multi_query_attention_custom(
            x, self.q_proj.weight, self.q_proj.bias, self.k_proj.weight, self.k_proj.bias,
            self.v_proj.weight, self.v_proj.bias, self.out_proj.weight, self.out_proj.bias,
            self.num_heads)
'''
