python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// Split-KV ("flash decoding") attention for a handful of query tokens over a long KV cache.
// The kernel produces, per (batch, split, query): the un-normalised partial output
// sum_j exp(s_j - m) v_j together with the local max m and local sum l. The few partial
// results are merged here with a log-sum-exp rescale.
at::Tensor kv_cached_speculative_attention_custom_impl_npu(const at::Tensor& q, const at::Tensor& k_cache,
                                                           const at::Tensor& v_cache)
{
    const int64_t b = q.size(0);
    const int64_t lq = q.size(1);
    const int64_t d = q.size(2);
    const int64_t lkv = k_cache.size(1);
    int64_t splits = 20;                       // b * splits ~= number of vector cores
    if (splits > lkv) splits = lkv;

    at::Tensor qc = q.contiguous();
    at::Tensor kc = k_cache.contiguous();
    at::Tensor vc = v_cache.contiguous();
    at::Tensor o_part = at::empty({b, splits, lq, d}, q.options());
    at::Tensor stat = at::empty({b, splits, lq, 2}, q.options());
    EXEC_NPU_CMD(aclnnKvCachedSpeculativeAttentionCustom, qc, kc, vc, splits, o_part, stat);

    at::Tensor m = stat.select(-1, 0);                       // (b, splits, lq)
    at::Tensor l = stat.select(-1, 1);
    at::Tensor m_all = std::get<0>(m.max(1, true));          // (b, 1, lq)
    at::Tensor w = at::exp(m - m_all);                       // (b, splits, lq)
    at::Tensor num = (o_part * w.unsqueeze(-1)).sum(1);      // (b, lq, d)
    at::Tensor den = (l * w).sum(1).unsqueeze(-1);           // (b, lq, 1)
    return num / den;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("kv_cached_speculative_attention_custom", &kv_cached_speculative_attention_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("kv_cached_speculative_attention_custom", &kv_cached_speculative_attention_custom_impl_npu,
          "SDPA over a KV cache (split-KV AscendC kernel)");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, Q, K_cache, V_cache):
        return custom_ops_lib.kv_cached_speculative_attention_custom(Q, K_cache, V_cache)
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(KvCachedSpeculativeAttentionCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, lq);
  TILING_DATA_FIELD_DEF(uint32_t, lkv);
  TILING_DATA_FIELD_DEF(uint32_t, d);
  TILING_DATA_FIELD_DEF(uint32_t, d_al);
  TILING_DATA_FIELD_DEF(uint32_t, d_tile);     // feature chunk streamed through UB
  TILING_DATA_FIELD_DEF(uint32_t, d_tiles);
  TILING_DATA_FIELD_DEF(uint32_t, splits);     // kv splits per batch
  TILING_DATA_FIELD_DEF(uint32_t, kv_per);     // kv rows per split (last one may be shorter)
  TILING_DATA_FIELD_DEF(uint32_t, kv_per_al);
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(KvCachedSpeculativeAttentionCustom, KvCachedSpeculativeAttentionCustomTilingData)
}
"""

host_operator_src="""
#include <cmath>
#include "kv_cached_speculative_attention_custom_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
constexpr uint32_t D_TILE = 2048;
constexpr uint32_t Q_UB_LIMIT = 16384;     // floats of Q kept resident (64KB)

static inline uint32_t al8(uint32_t v) { return (v + 7) / 8 * 8; }

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    KvCachedSpeculativeAttentionCustomTilingData td;
    const gert::Shape& qs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& ks = context->GetInputShape(1)->GetStorageShape();
    uint32_t batch = qs.GetDim(0);
    uint32_t lq = qs.GetDim(1);
    uint32_t d = qs.GetDim(2);
    uint32_t lkv = ks.GetDim(1);
    uint32_t splits = static_cast<uint32_t>(*context->GetAttrs()->GetInt(0));
    if (splits == 0 || splits > lkv) splits = lkv;

    if (lq * al8(d) > Q_UB_LIMIT || lq > 8) {
        return ge::GRAPH_FAILED;   // only meant for short (speculative) query windows
    }
    uint32_t d_tile = d < D_TILE ? al8(d) : D_TILE;
    uint32_t d_tiles = (d + d_tile - 1) / d_tile;
    uint32_t kv_per = (lkv + splits - 1) / splits;
    if (kv_per > 1024) {
        return ge::GRAPH_FAILED;   // score rows have to fit in UB
    }

    td.set_batch(batch);
    td.set_lq(lq);
    td.set_lkv(lkv);
    td.set_d(d);
    td.set_d_al(al8(d));
    td.set_d_tile(d_tile);
    td.set_d_tiles(d_tiles);
    td.set_splits(splits);
    td.set_kv_per(kv_per);
    td.set_kv_per_al(al8(kv_per));
    td.set_scale(1.0f / std::sqrt(static_cast<float>(d)));

    context->SetBlockDim(batch * splits);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* qs = context->GetInputShape(0);
    int64_t splits = *context->GetAttrs()->GetInt(0);
    gert::Shape* os = context->GetOutputShape(0);
    gert::Shape* ss = context->GetOutputShape(1);
    os->SetDimNum(4);
    os->SetDim(0, qs->GetDim(0));
    os->SetDim(1, splits);
    os->SetDim(2, qs->GetDim(1));
    os->SetDim(3, qs->GetDim(2));
    ss->SetDimNum(4);
    ss->SetDim(0, qs->GetDim(0));
    ss->SetDim(1, splits);
    ss->SetDim(2, qs->GetDim(1));
    ss->SetDim(3, 2);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    context->SetOutputDataType(1, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class KvCachedSpeculativeAttentionCustom : public OpDef {
public:
    explicit KvCachedSpeculativeAttentionCustom(const char* name) : OpDef(name)
    {
        this->Input("q").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("k_cache").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("v_cache").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("o_part").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("stat").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("num_splits").AttrType(REQUIRED).Int();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(KvCachedSpeculativeAttentionCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUF = 2;
constexpr float MIN_F = -3.402823466e+38f;

// core idx -> (batch b, split s). Pass 1 streams K rows of the split and builds the
// scaled score matrix [lq, kv_cnt]; a local softmax (max m, sum l) follows.
// Pass 2 streams V in feature tiles and accumulates P @ V for all queries.
class SplitKvAttention {
public:
    __aicore__ inline SplitKvAttention() {}
    __aicore__ inline void Init(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR o_part, GM_ADDR stat,
                                const KvCachedSpeculativeAttentionCustomTilingData& t)
    {
        lq = t.lq; lkv = t.lkv; d = t.d; d_al = t.d_al; d_tile = t.d_tile; d_tiles = t.d_tiles;
        splits = t.splits; kv_per = t.kv_per; kv_per_al = t.kv_per_al; scale = t.scale;

        uint32_t idx = GetBlockIdx();
        b = idx / splits;
        s = idx % splits;
        kv_beg = s * kv_per;
        kv_cnt = 0;
        if (kv_beg < lkv) {
            kv_cnt = (kv_beg + kv_per <= lkv) ? kv_per : (lkv - kv_beg);
        }

        q_gm.SetGlobalBuffer((__gm__ float*)q + (uint64_t)b * lq * d);
        k_gm.SetGlobalBuffer((__gm__ float*)k + (uint64_t)b * lkv * d);
        v_gm.SetGlobalBuffer((__gm__ float*)v + (uint64_t)b * lkv * d);
        o_gm.SetGlobalBuffer((__gm__ float*)o_part + ((uint64_t)b * splits + s) * lq * d);
        st_gm.SetGlobalBuffer((__gm__ float*)stat + ((uint64_t)b * splits + s) * lq * 2);

        pipe.InitBuffer(q_que, 1, lq * d_al * sizeof(float));
        pipe.InitBuffer(kv_que, BUF, d_tile * sizeof(float));
        pipe.InitBuffer(acc_que, 1, lq * d_tile * sizeof(float));
        pipe.InitBuffer(st_que, 1, lq * 8 * sizeof(float));
        pipe.InitBuffer(score_buf, lq * kv_per_al * sizeof(float));
        pipe.InitBuffer(tmp_buf, d_tile * sizeof(float));
        pipe.InitBuffer(red_buf, 8 * sizeof(float));
        pipe.InitBuffer(work_buf, (d_tile > kv_per_al ? d_tile : kv_per_al) * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (kv_cnt == 0) {
            write_empty();
            return;
        }
        load_q();
        score_pass();
        softmax_pass();
        value_pass();
    }

private:
    __aicore__ inline void sync_v_s()
    {
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
    }
    __aicore__ inline void sync_s_v()
    {
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(e);
        WaitFlag<HardEvent::S_V>(e);
    }

    __aicore__ inline void load_q()
    {
        LocalTensor<float> ql = q_que.AllocTensor<float>();
        DataCopyExtParams cp{static_cast<uint16_t>(lq), static_cast<uint32_t>(d * sizeof(float)), 0, 0, 0};
        DataCopyPad(ql, q_gm, cp, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        q_que.EnQue(ql);
        q_loc = q_que.DeQue<float>();
    }

    __aicore__ inline void load_row(GlobalTensor<float>& src, uint32_t row, uint32_t c0, uint32_t len)
    {
        LocalTensor<float> r = kv_que.AllocTensor<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPad(r, src[(uint64_t)row * d + c0], cp, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        kv_que.EnQue(r);
    }

    // scores[i, j] = scale * <q_i, k_j>
    __aicore__ inline void score_pass()
    {
        LocalTensor<float> sc = score_buf.Get<float>();
        LocalTensor<float> dot = acc_que.AllocTensor<float>();   // lq partial-product rows
        LocalTensor<float> tmp = tmp_buf.Get<float>();
        LocalTensor<float> red = red_buf.Get<float>();
        LocalTensor<float> work = work_buf.Get<float>();

        for (uint32_t j = 0; j < kv_cnt; ++j) {
            Duplicate(dot, 0.0f, lq * d_tile);
            for (uint32_t t = 0; t < d_tiles; ++t) {
                uint32_t c0 = t * d_tile;
                uint32_t len = (c0 + d_tile <= d) ? d_tile : (d - c0);
                load_row(k_gm, kv_beg + j, c0, len);
                LocalTensor<float> kr = kv_que.DeQue<float>();
                for (uint32_t i = 0; i < lq; ++i) {
                    Mul(tmp, kr, q_loc[i * d_al + c0], len);
                    Add(dot[i * d_tile], dot[i * d_tile], tmp, len);
                }
                kv_que.FreeTensor(kr);
            }
            uint32_t red_len = d_tiles > 1 ? d_tile : d;
            for (uint32_t i = 0; i < lq; ++i) {
                ReduceSum<float>(red, dot[i * d_tile], work, red_len);
                sync_v_s();
                sc.SetValue(i * kv_per_al + j, red.GetValue(0) * scale);
                sync_s_v();
            }
        }
        acc_que.FreeTensor(dot);
    }

    // p = exp(s - m), keep m and l = sum(p) per query row
    __aicore__ inline void softmax_pass()
    {
        LocalTensor<float> sc = score_buf.Get<float>();
        LocalTensor<float> red = red_buf.Get<float>();
        LocalTensor<float> work = work_buf.Get<float>();
        LocalTensor<float> st = st_que.AllocTensor<float>();

        for (uint32_t i = 0; i < lq; ++i) {
            LocalTensor<float> row = sc[i * kv_per_al];
            ReduceMax<float>(red, row, work, kv_cnt, false);
            sync_v_s();
            float m = red.GetValue(0);
            sync_s_v();
            Adds(row, row, -m, kv_cnt);
            Exp(row, row, kv_cnt);
            ReduceSum<float>(red, row, work, kv_cnt);
            sync_v_s();
            st.SetValue(i * 2, m);
            st.SetValue(i * 2 + 1, red.GetValue(0));
            sync_s_v();
        }
        st_que.EnQue(st);
        st = st_que.DeQue<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(lq * 2 * sizeof(float)), 0, 0, 0};
        DataCopyPad(st_gm, st, cp);
        st_que.FreeTensor(st);
    }

    // o[i, :] = sum_j p[i, j] * v_j   (feature tile by feature tile)
    __aicore__ inline void value_pass()
    {
        LocalTensor<float> sc = score_buf.Get<float>();
        for (uint32_t t = 0; t < d_tiles; ++t) {
            uint32_t c0 = t * d_tile;
            uint32_t len = (c0 + d_tile <= d) ? d_tile : (d - c0);
            LocalTensor<float> acc = acc_que.AllocTensor<float>();
            Duplicate(acc, 0.0f, lq * d_tile);
            for (uint32_t j = 0; j < kv_cnt; ++j) {
                load_row(v_gm, kv_beg + j, c0, len);
                LocalTensor<float> vr = kv_que.DeQue<float>();
                for (uint32_t i = 0; i < lq; ++i) {
                    float p = sc.GetValue(i * kv_per_al + j);
                    Axpy(acc[i * d_tile], vr, p, len);
                }
                kv_que.FreeTensor(vr);
            }
            acc_que.EnQue(acc);
            acc = acc_que.DeQue<float>();
            uint32_t len_al = (len + 7) / 8 * 8;
            DataCopyExtParams cp{static_cast<uint16_t>(lq), static_cast<uint32_t>(len * sizeof(float)),
                                 static_cast<uint32_t>((d_tile - len_al) / 8),
                                 static_cast<uint32_t>((d - len) * sizeof(float)), 0};
            DataCopyPad(o_gm[c0], acc, cp);
            acc_que.FreeTensor(acc);
        }
        q_que.FreeTensor(q_loc);
    }

    __aicore__ inline void write_empty()
    {
        LocalTensor<float> st = st_que.AllocTensor<float>();
        for (uint32_t i = 0; i < lq; ++i) {
            st.SetValue(i * 2, MIN_F);
            st.SetValue(i * 2 + 1, 0.0f);
        }
        st_que.EnQue(st);
        st = st_que.DeQue<float>();
        DataCopyPad(st_gm, st, DataCopyExtParams{1, static_cast<uint32_t>(lq * 2 * sizeof(float)), 0, 0, 0});
        st_que.FreeTensor(st);

        for (uint32_t t = 0; t < d_tiles; ++t) {
            uint32_t c0 = t * d_tile;
            uint32_t len = (c0 + d_tile <= d) ? d_tile : (d - c0);
            uint32_t len_al = (len + 7) / 8 * 8;
            LocalTensor<float> acc = acc_que.AllocTensor<float>();
            Duplicate(acc, 0.0f, lq * d_tile);
            acc_que.EnQue(acc);
            acc = acc_que.DeQue<float>();
            DataCopyExtParams cp{static_cast<uint16_t>(lq), static_cast<uint32_t>(len * sizeof(float)),
                                 static_cast<uint32_t>((d_tile - len_al) / 8),
                                 static_cast<uint32_t>((d - len) * sizeof(float)), 0};
            DataCopyPad(o_gm[c0], acc, cp);
            acc_que.FreeTensor(acc);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> q_que;
    TQue<QuePosition::VECIN, BUF> kv_que;
    TQue<QuePosition::VECOUT, 1> acc_que, st_que;
    TBuf<QuePosition::VECCALC> score_buf, tmp_buf, red_buf, work_buf;
    GlobalTensor<float> q_gm, k_gm, v_gm, o_gm, st_gm;
    LocalTensor<float> q_loc;
    uint32_t lq, lkv, d, d_al, d_tile, d_tiles, splits, kv_per, kv_per_al;
    uint32_t b, s, kv_beg, kv_cnt;
    float scale;
};

extern "C" __global__ __aicore__ void kv_cached_speculative_attention_custom(GM_ADDR q, GM_ADDR k_cache, GM_ADDR v_cache,
                                                                             GM_ADDR o_part, GM_ADDR stat,
                                                                             GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    SplitKvAttention op;
    op.Init(q, k_cache, v_cache, o_part, stat, td);
    op.Process();
}
"""

project_json_src='''
[
    {
        "op": "KvCachedSpeculativeAttentionCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "q", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "k_cache", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "v_cache", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "o_part", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "stat", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "num_splits", "param_type": "required", "type": "int"}
        ]
    }
]
'''
