project_json_src='''
[
    {
        "op": "KvCachedAttentionInferenceCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "q", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "k_cache", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "v_cache", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "out", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(KvCachedAttentionInferenceCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, qLen);
  TILING_DATA_FIELD_DEF(uint32_t, kvLen);
  TILING_DATA_FIELD_DEF(uint32_t, dim);
  TILING_DATA_FIELD_DEF(uint32_t, kvChunk);     // kv positions per core in phase 1
  TILING_DATA_FIELD_DEF(uint32_t, numChunks);
  TILING_DATA_FIELD_DEF(uint32_t, dSlice);      // output columns per core in phase 2
  TILING_DATA_FIELD_DEF(uint32_t, scoreCap);
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(KvCachedAttentionInferenceCustom, KvCachedAttentionInferenceCustomTilingData)
}
"""

host_operator_src="""
#include <cmath>
#include "kv_cached_attention_inference_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    KvCachedAttentionInferenceCustomTilingData tiling;
    const gert::Shape &qs = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape &ks = context->GetInputShape(1)->GetOriginShape();
    uint32_t b = qs.GetDim(0), lq = qs.GetDim(1), d = qs.GetDim(2);
    uint32_t lk = ks.GetDim(1);
    // q/k/v rows, acc and a product buffer all sit in UB at once
    if (d % 8 != 0 || d > 6144 || lk == 0) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();

    uint32_t chunk = (lk + cores - 1) / cores;
    uint32_t nChunks = (lk + chunk - 1) / chunk;
    uint32_t slice = (d + cores - 1) / cores;
    slice = (slice + 63) / 64 * 64;
    uint32_t cap = (chunk + 63) / 64 * 64;

    tiling.set_batch(b);
    tiling.set_qLen(lq);
    tiling.set_kvLen(lk);
    tiling.set_dim(d);
    tiling.set_kvChunk(chunk);
    tiling.set_numChunks(nChunks);
    tiling.set_dSlice(slice);
    tiling.set_scoreCap(cap);
    tiling.set_scale(1.0f / std::sqrt((float)d));

    context->SetBlockDim(cores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    // partial (acc[d], m, l) per (row, chunk)
    size_t partial = (size_t)b * lq * nChunks * (d + 8) * sizeof(float);
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = partial + plat.GetLibApiWorkSpaceSize();
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
class KvCachedAttentionInferenceCustom : public OpDef {
public:
    explicit KvCachedAttentionInferenceCustom(const char* name) : OpDef(name)
    {
        this->Input("q").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("k_cache").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("v_cache").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("out").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(KvCachedAttentionInferenceCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

// split-KV decode attention:
//  phase 1: every core scores its kv chunk, keeps (m, l, sum p*v) in workspace
//  phase 2: after SyncAll every core merges the chunks for its slice of d_model
class KvDecodeAttention {
public:
    __aicore__ inline KvDecodeAttention() {}
    __aicore__ inline void Init(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR out, GM_ADDR ws,
                                const KvCachedAttentionInferenceCustomTilingData &t)
    {
        B = t.batch; Lq = t.qLen; Lk = t.kvLen; D = t.dim;
        chunk = t.kvChunk; nChunks = t.numChunks; slice = t.dSlice; cap = t.scoreCap;
        scale = t.scale;
        rows = B * Lq;
        stride = D + 8;
        core = GetBlockIdx();

        qGm.SetGlobalBuffer((__gm__ float *)q);
        kGm.SetGlobalBuffer((__gm__ float *)k);
        vGm.SetGlobalBuffer((__gm__ float *)v);
        oGm.SetGlobalBuffer((__gm__ float *)out);
        wsGm.SetGlobalBuffer((__gm__ float *)ws);

        pipe.InitBuffer(inQ, 2, D * sizeof(float));
        pipe.InitBuffer(qBuf, D * sizeof(float));
        pipe.InitBuffer(accBuf, D * sizeof(float));
        pipe.InitBuffer(prodBuf, D * sizeof(float));
        pipe.InitBuffer(scoreBuf, cap * sizeof(float));
        pipe.InitBuffer(redBuf, 8 * sizeof(float));
        pipe.InitBuffer(workBuf, (D / 8 + 64) * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (core < nChunks) {
            for (uint32_t r = 0; r < rows; ++r) {
                PartialRow(r);
            }
        }
        PipeBarrier<PIPE_ALL>();
        SyncAll();
        uint32_t d0 = core * slice;
        if (d0 < D) {
            uint32_t dl = (D - d0) < slice ? (D - d0) : slice;
            for (uint32_t r = 0; r < rows; ++r) {
                MergeRow(r, d0, dl);
            }
        }
    }

private:
    __aicore__ inline void WaitV2S()
    {
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
    }
    __aicore__ inline void WaitS2V()
    {
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(e);
        WaitFlag<HardEvent::S_V>(e);
    }
    __aicore__ inline void WaitMte3Mte2()
    {
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE3_MTE2));
        SetFlag<HardEvent::MTE3_MTE2>(e);
        WaitFlag<HardEvent::MTE3_MTE2>(e);
    }

    __aicore__ inline void LoadRow(const GlobalTensor<float> &src, uint64_t off)
    {
        LocalTensor<float> t = inQ.AllocTensor<float>();
        DataCopy(t, src[off], D);
        inQ.EnQue(t);
    }

    __aicore__ inline void PartialRow(uint32_t r)
    {
        uint32_t b = r / Lq;
        uint32_t j0 = core * chunk;
        uint32_t n = (Lk - j0) < chunk ? (Lk - j0) : chunk;
        uint64_t kvBase = (uint64_t)b * Lk * D;

        LocalTensor<float> qL = qBuf.Get<float>();
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> prod = prodBuf.Get<float>();
        LocalTensor<float> sc = scoreBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> wk = workBuf.Get<float>();

        LoadRow(qGm, (uint64_t)r * D);
        LocalTensor<float> qi = inQ.DeQue<float>();
        Muls(qL, qi, scale, D);   // fold 1/sqrt(d) into q
        inQ.FreeTensor(qi);

        // scores
        for (uint32_t j = 0; j < n; ++j) {
            LoadRow(kGm, kvBase + (uint64_t)(j0 + j) * D);
            LocalTensor<float> kr = inQ.DeQue<float>();
            Mul(prod, qL, kr, D);
            inQ.FreeTensor(kr);
            ReduceSum(red, prod, wk, D);
            WaitV2S();
            sc.SetValue(j, red.GetValue(0));
        }
        WaitS2V();

        // local softmax stats
        ReduceMax(red, sc, wk, n);
        WaitV2S();
        float m = red.GetValue(0);
        Adds(sc, sc, -m, n);
        Exp(sc, sc, n);
        ReduceSum(red, sc, wk, n);
        WaitV2S();
        float l = red.GetValue(0);

        // acc = sum_j p_j * v_j
        Duplicate(acc, 0.0f, D);
        for (uint32_t j = 0; j < n; ++j) {
            float p = sc.GetValue(j);
            LoadRow(vGm, kvBase + (uint64_t)(j0 + j) * D);
            LocalTensor<float> vr = inQ.DeQue<float>();
            Axpy(acc, vr, p, D);
            inQ.FreeTensor(vr);
        }

        // stash partial: [acc | m l 0 ...]
        Duplicate(red, 0.0f, 8);
        WaitV2S();
        red.SetValue(0, m);
        red.SetValue(1, l);
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE3));
        SetFlag<HardEvent::V_MTE3>(e);
        WaitFlag<HardEvent::V_MTE3>(e);
        event_t e2 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(e2);
        WaitFlag<HardEvent::S_MTE3>(e2);
        uint64_t wOff = ((uint64_t)r * nChunks + core) * stride;
        DataCopy(wsGm[wOff], acc, D);
        DataCopy(wsGm[wOff + D], red, 8);
        event_t e3 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE3_V));
        SetFlag<HardEvent::MTE3_V>(e3);
        WaitFlag<HardEvent::MTE3_V>(e3);
    }

    __aicore__ inline void MergeRow(uint32_t r, uint32_t d0, uint32_t dl)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> stats = prodBuf.Get<float>();   // nChunks * 8 floats
        LocalTensor<float> wv = scoreBuf.Get<float>();
        uint64_t rowBase = (uint64_t)r * nChunks * stride;

        // pull (m, l) of every chunk
        DataCopyExtParams p{(uint16_t)nChunks, 8 * sizeof(float), (uint32_t)(D * sizeof(float)), 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(stats, wsGm[rowBase + D], p, pad);
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(e);
        WaitFlag<HardEvent::MTE2_S>(e);

        float gmax = stats.GetValue(0);
        for (uint32_t c = 1; c < nChunks; ++c) {
            float mc = stats.GetValue(c * 8);
            gmax = mc > gmax ? mc : gmax;
        }
        for (uint32_t c = 0; c < nChunks; ++c) {
            wv.SetValue(c, stats.GetValue(c * 8) - gmax);
        }
        WaitS2V();
        Exp(wv, wv, nChunks);
        WaitV2S();
        float denom = 0.0f;
        for (uint32_t c = 0; c < nChunks; ++c) {
            denom += wv.GetValue(c) * stats.GetValue(c * 8 + 1);
        }
        float inv = 1.0f / denom;

        Duplicate(acc, 0.0f, dl);
        for (uint32_t c = 0; c < nChunks; ++c) {
            float coef = wv.GetValue(c) * inv;
            LocalTensor<float> part = inQ.AllocTensor<float>();
            DataCopy(part, wsGm[rowBase + (uint64_t)c * stride + d0], dl);
            inQ.EnQue(part);
            part = inQ.DeQue<float>();
            Axpy(acc, part, coef, dl);
            inQ.FreeTensor(part);
        }
        event_t e2 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE3));
        SetFlag<HardEvent::V_MTE3>(e2);
        WaitFlag<HardEvent::V_MTE3>(e2);
        DataCopy(oGm[(uint64_t)r * D + d0], acc, dl);
        event_t e3 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE3_V));
        SetFlag<HardEvent::MTE3_V>(e3);
        WaitFlag<HardEvent::MTE3_V>(e3);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TBuf<TPosition::VECCALC> qBuf, accBuf, prodBuf, scoreBuf, redBuf, workBuf;
    GlobalTensor<float> qGm, kGm, vGm, oGm, wsGm;
    uint32_t B, Lq, Lk, D, rows, stride;
    uint32_t chunk, nChunks, slice, cap, core;
    float scale;
};

extern "C" __global__ __aicore__ void kv_cached_attention_inference_custom(GM_ADDR q, GM_ADDR k_cache, GM_ADDR v_cache,
                                                                           GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    GM_ADDR usrWs = GetUserWorkspace(workspace);
    KvDecodeAttention op;
    op.Init(q, k_cache, v_cache, out, usrWs, tiling_data);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor kv_cached_attention_inference_custom_impl_npu(const at::Tensor& Q, const at::Tensor& K_cache,
                                                         const at::Tensor& V_cache)
{
    TORCH_CHECK(Q.dim() == 3 && K_cache.dim() == 3 && V_cache.dim() == 3, "expect [B, L, D] inputs");
    at::Tensor out = at::empty_like(Q);
    EXEC_NPU_CMD(aclnnKvCachedAttentionInferenceCustom, Q, K_cache, V_cache, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("kv_cached_attention_inference_custom", &kv_cached_attention_inference_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("kv_cached_attention_inference_custom", &kv_cached_attention_inference_custom_impl_npu,
          "decode attention over a kv cache");
}
"""
