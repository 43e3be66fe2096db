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
  TILING_DATA_FIELD_DEF(uint32_t, headDim);      // d_model (single head)
  TILING_DATA_FIELD_DEF(uint32_t, kvPerCore);    // kv positions scored by one core (split-KV)
  TILING_DATA_FIELD_DEF(uint32_t, scoreCap);     // kvPerCore rounded up to 8
  TILING_DATA_FIELD_DEF(uint32_t, dPerCore);     // output columns merged by one core
  TILING_DATA_FIELD_DEF(uint32_t, usedCores);
  TILING_DATA_FIELD_DEF(float, scale);           // 1 / sqrt(headDim)
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
static constexpr uint32_t MAX_HEAD_DIM = 4096;   // one full row of Q/K/V must fit in a UB buffer
static constexpr uint32_t STAT_STRIDE = 8;       // per-core (max, sum) record, padded to 32 bytes

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    KvCachedAttentionInferenceCustomTilingData td;
    auto qShape = context->GetInputShape(0)->GetOriginShape();
    auto kShape = context->GetInputShape(1)->GetOriginShape();

    uint32_t batch = static_cast<uint32_t>(qShape.GetDim(0));
    uint32_t qLen = static_cast<uint32_t>(qShape.GetDim(1));
    uint32_t dim = static_cast<uint32_t>(qShape.GetDim(2));
    uint32_t kvLen = static_cast<uint32_t>(kShape.GetDim(1));
    if (dim > MAX_HEAD_DIM || dim % 8 != 0 || kvLen == 0) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores == 0) cores = 1;
    if (cores > kvLen) cores = kvLen;

    uint32_t kvPerCore = (kvLen + cores - 1) / cores;
    uint32_t used = (kvLen + kvPerCore - 1) / kvPerCore;
    // the merge phase splits the feature axis; keep slices 32B aligned
    uint32_t dPerCore = (dim + used - 1) / used;
    dPerCore = (dPerCore + 7) / 8 * 8;

    td.set_batch(batch);
    td.set_qLen(qLen);
    td.set_kvLen(kvLen);
    td.set_headDim(dim);
    td.set_kvPerCore(kvPerCore);
    td.set_scoreCap((kvPerCore + 7) / 8 * 8);
    td.set_dPerCore(dPerCore);
    td.set_usedCores(used);
    td.set_scale(1.0f / std::sqrt(static_cast<float>(dim)));

    context->SetBlockDim(used);
    context->SetScheduleMode(1);   // all cores must be resident: the kernel uses SyncAll
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    // user workspace: partial outputs (used x dim) + per-core softmax stats (used x 8)
    size_t userWs = static_cast<size_t>(used) * dim * sizeof(float) +
                    static_cast<size_t>(used) * STAT_STRIDE * sizeof(float);
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = userWs + plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* q = context->GetInputShape(0);
    const gert::Shape* v = context->GetInputShape(2);
    gert::Shape* o = context->GetOutputShape(0);
    o->SetDimNum(3);
    o->SetDim(0, q->GetDim(0));
    o->SetDim(1, q->GetDim(1));
    o->SetDim(2, v->GetDim(2));
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

// Split-KV ("flash decoding") attention for a handful of query rows against a long cache.
//   phase 1: core c scores its slice of the cache, s_j = q.k_j * scale, and produces
//            m_c = max s_j, l_c = sum exp(s_j - m_c), o_c = sum exp(s_j - m_c) v_j
//   phase 2: after a global barrier, core c merges all partials for a slice of the feature
//            axis: out = sum_c exp(m_c - M) o_c / sum_c exp(m_c - M) l_c
constexpr uint32_t STAT_STRIDE = 8;
constexpr int32_t NBUF = 2;
constexpr float NEG_BIG = -3.0e38f;

class KvAttnDecode {
public:
    __aicore__ inline KvAttnDecode() {}

    __aicore__ inline void Init(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR out, GM_ADDR usrWs,
                                const KvCachedAttentionInferenceCustomTilingData &t)
    {
        batch = t.batch; qLen = t.qLen; kvLen = t.kvLen; D = t.headDim;
        kvPerCore = t.kvPerCore; scoreCap = t.scoreCap; dPerCore = t.dPerCore;
        nCores = t.usedCores; scale = t.scale;
        core = GetBlockIdx();

        qGm.SetGlobalBuffer((__gm__ float *)q);
        kGm.SetGlobalBuffer((__gm__ float *)k);
        vGm.SetGlobalBuffer((__gm__ float *)v);
        oGm.SetGlobalBuffer((__gm__ float *)out);
        partGm.SetGlobalBuffer((__gm__ float *)usrWs, nCores * D);
        statGm.SetGlobalBuffer((__gm__ float *)usrWs + nCores * D, nCores * STAT_STRIDE);

        kvBegin = core * kvPerCore;
        kvEnd = kvBegin + kvPerCore;
        if (kvEnd > kvLen) kvEnd = kvLen;
        if (kvBegin > kvLen) kvBegin = kvLen;

        pipe.InitBuffer(rowQue, NBUF, D * sizeof(float));     // streamed K / V rows
        pipe.InitBuffer(qBuf, D * sizeof(float));
        pipe.InitBuffer(accBuf, D * sizeof(float));
        pipe.InitBuffer(tmpBuf, D * sizeof(float));
        pipe.InitBuffer(redBuf, D * sizeof(float));            // ReduceX scratch
        pipe.InitBuffer(scoreBuf, scoreCap * sizeof(float));
        pipe.InitBuffer(statBuf, 8 * sizeof(float));
        pipe.InitBuffer(dotBuf, 8 * sizeof(float));
        uint32_t allStats = (nCores * STAT_STRIDE);
        pipe.InitBuffer(allStatBuf, allStats * sizeof(float));
        pipe.InitBuffer(wBuf, ((nCores + 7) / 8 * 8) * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t rowsQ = batch * qLen;
        for (uint32_t r = 0; r < rowsQ; ++r) {
            uint32_t b = r / qLen;
            PartialAttention(r, b);
            SyncAll();
            Merge(r);
            SyncAll();   // workspace is reused by the next query row
        }
    }

private:
    __aicore__ inline void VtoS()
    {
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
    }
    __aicore__ inline void StoV()
    {
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(e);
        WaitFlag<HardEvent::S_V>(e);
    }
    __aicore__ inline void MTE2toV()
    {
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(e);
        WaitFlag<HardEvent::MTE2_V>(e);
    }
    __aicore__ inline void VtoMTE3()
    {
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_MTE3));
        SetFlag<HardEvent::V_MTE3>(e);
        WaitFlag<HardEvent::V_MTE3>(e);
    }
    __aicore__ inline void MTE3toMTE2()
    {
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE3_MTE2));
        SetFlag<HardEvent::MTE3_MTE2>(e);
        WaitFlag<HardEvent::MTE3_MTE2>(e);
    }

    __aicore__ inline LocalTensor<float> FetchRow(GlobalTensor<float> &src, uint64_t offset)
    {
        LocalTensor<float> row = rowQue.AllocTensor<float>();
        DataCopy(row, src[offset], D);
        rowQue.EnQue(row);
        return rowQue.DeQue<float>();
    }

    __aicore__ inline void PartialAttention(uint32_t r, uint32_t b)
    {
        LocalTensor<float> qLoc = qBuf.Get<float>();
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> sc = scoreBuf.Get<float>();
        LocalTensor<float> st = statBuf.Get<float>();
        LocalTensor<float> dot = dotBuf.Get<float>();

        DataCopy(qLoc, qGm[(uint64_t)r * D], D);
        MTE2toV();
        Duplicate(acc, 0.0f, D);
        Duplicate(st, 0.0f, 8);

        uint32_t n = kvEnd - kvBegin;
        float mLocal = NEG_BIG;
        float lLocal = 0.0f;
        uint64_t kvBase = (uint64_t)b * kvLen * D;

        if (n > 0) {
            // 1) raw scores for this slice
            for (uint32_t j = 0; j < n; ++j) {
                LocalTensor<float> kRow = FetchRow(kGm, kvBase + (uint64_t)(kvBegin + j) * D);
                Mul(tmp, qLoc, kRow, D);
                rowQue.FreeTensor(kRow);
                ReduceSum<float>(dot, tmp, red, D);
                VtoS();
                sc.SetValue(j, dot.GetValue(0) * scale);
                StoV();
            }
            // 2) local softmax numerator
            ReduceMax<float>(tmp, sc, red, n);
            VtoS();
            mLocal = tmp.GetValue(0);
            StoV();
            Adds(sc, sc, -mLocal, n);
            Exp(sc, sc, n);
            ReduceSum<float>(tmp, sc, red, n);
            VtoS();
            lLocal = tmp.GetValue(0);

            // 3) weighted sum of V rows
            for (uint32_t j = 0; j < n; ++j) {
                float p = sc.GetValue(j);
                LocalTensor<float> vRow = FetchRow(vGm, kvBase + (uint64_t)(kvBegin + j) * D);
                Axpy(acc, vRow, p, D);
                rowQue.FreeTensor(vRow);
            }
        }

        st.SetValue(0, mLocal);
        st.SetValue(1, lLocal);
        StoV();
        VtoMTE3();
        DataCopy(partGm[(uint64_t)core * D], acc, D);
        DataCopy(statGm[core * STAT_STRIDE], st, STAT_STRIDE);
        MTE3toMTE2();
    }

    __aicore__ inline void Merge(uint32_t r)
    {
        uint32_t d0 = core * dPerCore;
        if (d0 >= D) return;
        uint32_t len = (d0 + dPerCore <= D) ? dPerCore : D - d0;

        LocalTensor<float> stats = allStatBuf.Get<float>();
        LocalTensor<float> w = wBuf.Get<float>();
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();

        DataCopy(stats, statGm, nCores * STAT_STRIDE);
        MTE2toV();
        VtoS();

        // global max over the per-core maxima
        float gMax = NEG_BIG;
        for (uint32_t c = 0; c < nCores; ++c) {
            float m = stats.GetValue(c * STAT_STRIDE);
            gMax = m > gMax ? m : gMax;
            w.SetValue(c, m);
        }
        StoV();
        Adds(w, w, -gMax, nCores);
        Exp(w, w, nCores);             // rescale factor of every partial
        VtoS();
        float denom = 0.0f;
        for (uint32_t c = 0; c < nCores; ++c) {
            denom += w.GetValue(c) * stats.GetValue(c * STAT_STRIDE + 1);
        }
        float inv = 1.0f / denom;

        Duplicate(acc, 0.0f, len);
        for (uint32_t c = 0; c < nCores; ++c) {
            float coef = w.GetValue(c) * inv;
            LocalTensor<float> part = rowQue.AllocTensor<float>();
            DataCopy(part, partGm[(uint64_t)c * D + d0], len);
            rowQue.EnQue(part);
            part = rowQue.DeQue<float>();
            Axpy(acc, part, coef, len);
            rowQue.FreeTensor(part);
        }
        VtoMTE3();
        DataCopy(oGm[(uint64_t)r * D + d0], acc, len);
        MTE3toMTE2();
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, NBUF> rowQue;
    TBuf<TPosition::VECCALC> qBuf, accBuf, tmpBuf, redBuf, scoreBuf, statBuf, dotBuf, allStatBuf, wBuf;
    GlobalTensor<float> qGm, kGm, vGm, oGm, partGm, statGm;
    uint32_t batch, qLen, kvLen, D, kvPerCore, scoreCap, dPerCore, nCores, core;
    uint32_t kvBegin, kvEnd;
    float scale;
};

extern "C" __global__ __aicore__ void kv_cached_attention_inference_custom(GM_ADDR q, GM_ADDR k_cache, GM_ADDR v_cache,
                                                                           GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GET_TILING_DATA(td, tiling);
    GM_ADDR usrWs = GetUserWorkspace(workspace);
    KvAttnDecode op;
    op.Init(q, k_cache, v_cache, out, usrWs, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor kv_cached_attention_inference_custom_impl_npu(const at::Tensor& Q, const at::Tensor& K_cache,
                                                         const at::Tensor& V_cache) {
    TORCH_CHECK(Q.dim() == 3 && K_cache.dim() == 3 && V_cache.dim() == 3, "expected (B, L, D) tensors");
    at::Tensor q = Q.contiguous();
    at::Tensor k = K_cache.contiguous();
    at::Tensor v = V_cache.contiguous();
    at::Tensor out = at::empty({q.size(0), q.size(1), v.size(2)}, q.options());
    EXEC_NPU_CMD(aclnnKvCachedAttentionInferenceCustom, q, k, v, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("kv_cached_attention_inference_custom", &kv_cached_attention_inference_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("kv_cached_attention_inference_custom", &kv_cached_attention_inference_custom_impl_npu,
          "scaled dot-product attention over a KV cache (decode step)");
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
        return custom_ops_lib.kv_cached_attention_inference_custom(Q, K_cache, V_cache)
'''
