project_json_src = '''
[
    {
        "op": "SplitCacheDecodeAttendCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "query", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]},
            {"name": "key_cache", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]},
            {"name": "value_cache", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]}
        ],
        "output_desc": [
            {"name": "out", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]}
        ]
    }
]
'''

host_tiling_src = """
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SplitCacheDecodeTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, qLen);
  TILING_DATA_FIELD_DEF(uint32_t, kvLen);
  TILING_DATA_FIELD_DEF(uint32_t, headDim);
  TILING_DATA_FIELD_DEF(uint32_t, splits);        // kv partitions per query row
  TILING_DATA_FIELD_DEF(uint32_t, splitRows);     // kv rows per partition
  TILING_DATA_FIELD_DEF(uint32_t, coreNum);
  TILING_DATA_FIELD_DEF(float, softmaxScale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SplitCacheDecodeAttendCustom, SplitCacheDecodeTilingData)
}
"""

host_operator_src = """
#include "split_cache_decode_attend_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include <cmath>

namespace optiling {
constexpr uint32_t kStatSlot = 8;   // m, l padded to one 32B block per partition

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();

    const gert::Shape &qs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &ks = context->GetInputShape(1)->GetStorageShape();
    if (qs.GetDimNum() != 3 || ks.GetDimNum() != 3 || qs.GetDim(2) != ks.GetDim(2)) {
        return ge::GRAPH_FAILED;
    }
    uint32_t batch = qs.GetDim(0);
    uint32_t qLen = qs.GetDim(1);
    uint32_t dim = qs.GetDim(2);
    uint32_t kvLen = ks.GetDim(1);
    uint32_t queries = batch * qLen;

    // spread each query's kv range over enough partitions to occupy every core
    uint32_t splits = queries >= cores ? 1 : cores / queries;
    splits = splits > kvLen ? kvLen : splits;
    splits = splits == 0 ? 1 : splits;
    uint32_t splitRows = (kvLen + splits - 1) / splits;
    splits = (kvLen + splitRows - 1) / splitRows;
    uint32_t units = queries * splits;
    uint32_t used = units < cores ? units : cores;

    SplitCacheDecodeTilingData td;
    td.set_batch(batch);
    td.set_qLen(qLen);
    td.set_kvLen(kvLen);
    td.set_headDim(dim);
    td.set_splits(splits);
    td.set_splitRows(splitRows);
    td.set_coreNum(used);
    td.set_softmaxScale(1.0f / std::sqrt(static_cast<float>(dim)));

    context->SetTilingKey(context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 1 : 0);
    context->SetBlockDim(used);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    // partial outputs (dim floats) + stats per partition, plus system space for SyncAll
    size_t user = static_cast<size_t>(units) * (dim + kStatSlot) * sizeof(float);
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = user + plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *q = context->GetInputShape(0);
    const gert::Shape *v = context->GetInputShape(2);
    gert::Shape *o = context->GetOutputShape(0);
    *o = *q;
    o->SetDim(2, v->GetDim(2));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class SplitCacheDecodeAttendCustom : public OpDef {
public:
    explicit SplitCacheDecodeAttendCustom(const char *name) : OpDef(name)
    {
        this->Input("query").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("key_cache").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("value_cache").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("out").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(SplitCacheDecodeAttendCustom);
}
"""

kernel_src = """
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t ROW_GROUP = 8;      // kv rows scored before one online-softmax update
constexpr uint32_t STAT_SLOT = 8;
constexpr float MINUS_INF = -3.0e38f;

template <HardEvent E>
__aicore__ inline void Fence()
{
    event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(E));
    SetFlag<E>(ev);
    WaitFlag<E>(ev);
}

__aicore__ inline void ToFloat(const LocalTensor<float> &d, const LocalTensor<half> &s, uint32_t n)
{
    Cast(d, s, RoundMode::CAST_NONE, n);
}
__aicore__ inline void ToFloat(const LocalTensor<float> &d, const LocalTensor<float> &s, uint32_t n)
{
    Adds(d, s, 0.0f, n);
}
__aicore__ inline void FromFloat(const LocalTensor<half> &d, const LocalTensor<float> &s, uint32_t n)
{
    Cast(d, s, RoundMode::CAST_ROUND, n);
}
__aicore__ inline void FromFloat(const LocalTensor<float> &d, const LocalTensor<float> &s, uint32_t n)
{
    Adds(d, s, 0.0f, n);
}

// Flash-decoding: phase 1 gives each (query, kv partition) a partial
// (max, sum, unnormalised output); phase 2 merges the partitions per query.
template <typename T>
class SplitCacheDecode {
public:
    __aicore__ inline SplitCacheDecode() {}

    __aicore__ inline void Init(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR o, GM_ADDR usrWs,
                                const SplitCacheDecodeTilingData &td)
    {
        td_ = td;
        dim_ = td.headDim;
        qGm_.SetGlobalBuffer((__gm__ T *)q);
        kGm_.SetGlobalBuffer((__gm__ T *)k);
        vGm_.SetGlobalBuffer((__gm__ T *)v);
        oGm_.SetGlobalBuffer((__gm__ T *)o);
        uint32_t units = td.batch * td.qLen * td.splits;
        partGm_.SetGlobalBuffer((__gm__ float *)usrWs, static_cast<uint64_t>(units) * dim_);
        statGm_.SetGlobalBuffer((__gm__ float *)usrWs + static_cast<uint64_t>(units) * dim_, units * STAT_SLOT);

        pipe_.InitBuffer(rowQ_, BUFFER_NUM, dim_ * sizeof(T));
        pipe_.InitBuffer(partQ_, BUFFER_NUM, dim_ * sizeof(float));
        pipe_.InitBuffer(outQ_, 1, dim_ * sizeof(T));
        pipe_.InitBuffer(qBuf_, dim_ * sizeof(float));
        pipe_.InitBuffer(accBuf_, dim_ * sizeof(float));
        pipe_.InitBuffer(rowBuf_, dim_ * sizeof(float));
        pipe_.InitBuffer(workBuf_, dim_ * sizeof(float));
        pipe_.InitBuffer(smallBuf_, 64 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t queries = td_.batch * td_.qLen;
        uint32_t units = queries * td_.splits;
        for (uint32_t u = GetBlockIdx(); u < units; u += td_.coreNum) {
            PartialUnit(u / td_.splits, u % td_.splits, u);
        }
        SyncAll();
        for (uint32_t qi = GetBlockIdx(); qi < queries; qi += td_.coreNum) {
            MergeQuery(qi);
        }
    }

private:
    __aicore__ inline void LoadRow(const GlobalTensor<T> &src, uint64_t off)
    {
        LocalTensor<T> t = rowQ_.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(dim_ * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(t, src[off], cp, pad);
        rowQ_.EnQue(t);
    }

    __aicore__ inline void RowToFloat(const LocalTensor<float> &dst)
    {
        LocalTensor<T> t = rowQ_.DeQue<T>();
        ToFloat(dst, t, dim_);
        rowQ_.FreeTensor(t);
    }

    __aicore__ inline void PartialUnit(uint32_t qi, uint32_t split, uint32_t unit)
    {
        uint32_t b = qi / td_.qLen;
        uint32_t kvBegin = split * td_.splitRows;
        uint32_t kvEnd = kvBegin + td_.splitRows;
        kvEnd = kvEnd > td_.kvLen ? td_.kvLen : kvEnd;
        uint64_t kvBase = static_cast<uint64_t>(b) * td_.kvLen * dim_;

        LocalTensor<float> qf = qBuf_.Get<float>();
        LocalTensor<float> acc = accBuf_.Get<float>();
        LocalTensor<float> row = rowBuf_.Get<float>();
        LocalTensor<float> work = workBuf_.Get<float>();
        LocalTensor<float> small = smallBuf_.Get<float>();

        LoadRow(qGm_, static_cast<uint64_t>(qi) * dim_);
        RowToFloat(qf);
        Muls(qf, qf, td_.softmaxScale, dim_);      // fold 1/sqrt(d) into q once
        Duplicate(acc, 0.0f, dim_);

        float runMax = MINUS_INF;
        float runSum = 0.0f;
        float scores[ROW_GROUP];
        for (uint32_t j0 = kvBegin; j0 < kvEnd; j0 += ROW_GROUP) {
            uint32_t cnt = (kvEnd - j0) < ROW_GROUP ? (kvEnd - j0) : ROW_GROUP;

            // scores of this row group
            LoadRow(kGm_, kvBase + static_cast<uint64_t>(j0) * dim_);
            for (uint32_t r = 0; r < cnt; ++r) {
                RowToFloat(row);
                if (r + 1 < cnt) {
                    LoadRow(kGm_, kvBase + static_cast<uint64_t>(j0 + r + 1) * dim_);
                }
                Mul(row, row, qf, dim_);
                ReduceSum(small[32], row, work, dim_);
                Fence<HardEvent::V_S>();
                scores[r] = small.GetValue(32);
            }
            float groupMax = runMax;
            for (uint32_t r = 0; r < cnt; ++r) {
                groupMax = scores[r] > groupMax ? scores[r] : groupMax;
            }

            // exp of shifted scores and of the correction factor in one vector call
            for (uint32_t r = 0; r < cnt; ++r) {
                small.SetValue(r, scores[r] - groupMax);
            }
            small.SetValue(ROW_GROUP, runMax - groupMax);
            Fence<HardEvent::S_V>();
            Exp(small, small, ROW_GROUP + 1);
            Fence<HardEvent::V_S>();
            float alpha = small.GetValue(ROW_GROUP);
            float probs[ROW_GROUP];
            float groupSum = 0.0f;
            for (uint32_t r = 0; r < cnt; ++r) {
                probs[r] = small.GetValue(r);
                groupSum += probs[r];
            }
            runSum = runSum * alpha + groupSum;
            runMax = groupMax;

            Muls(acc, acc, alpha, dim_);
            LoadRow(vGm_, kvBase + static_cast<uint64_t>(j0) * dim_);
            for (uint32_t r = 0; r < cnt; ++r) {
                RowToFloat(row);
                if (r + 1 < cnt) {
                    LoadRow(vGm_, kvBase + static_cast<uint64_t>(j0 + r + 1) * dim_);
                }
                Axpy(acc, row, probs[r], dim_);
            }
        }

        // partial output and (max, sum) to workspace
        Fence<HardEvent::V_MTE3>();
        DataCopy(partGm_[static_cast<uint64_t>(unit) * dim_], acc, dim_);
        Duplicate(small, 0.0f, STAT_SLOT);
        Fence<HardEvent::V_S>();
        small.SetValue(0, runMax);
        small.SetValue(1, runSum);
        Fence<HardEvent::S_MTE3>();
        DataCopy(statGm_[unit * STAT_SLOT], small, STAT_SLOT);
        Fence<HardEvent::MTE3_V>();
    }

    __aicore__ inline void MergeQuery(uint32_t qi)
    {
        uint32_t splits = td_.splits;
        uint32_t firstUnit = qi * splits;
        LocalTensor<float> acc = accBuf_.Get<float>();
        LocalTensor<float> small = smallBuf_.Get<float>();
        LocalTensor<float> statsLocal = workBuf_.Get<float>();

        DataCopy(statsLocal, statGm_[firstUnit * STAT_SLOT], splits * STAT_SLOT);
        Fence<HardEvent::MTE2_S>();
        float gMax = MINUS_INF;
        for (uint32_t s = 0; s < splits; ++s) {
            float m = statsLocal.GetValue(s * STAT_SLOT);
            gMax = m > gMax ? m : gMax;
        }
        // weights exp(m_s - M), computed on the vector unit in groups of 32
        Duplicate(acc, 0.0f, dim_);
        float total = 0.0f;
        for (uint32_t s0 = 0; s0 < splits; s0 += 32) {
            uint32_t n = (splits - s0) < 32 ? (splits - s0) : 32;
            Fence<HardEvent::V_S>();
            for (uint32_t s = 0; s < n; ++s) {
                small.SetValue(s, statsLocal.GetValue((s0 + s) * STAT_SLOT) - gMax);
            }
            Fence<HardEvent::S_V>();
            Exp(small, small, n);
            Fence<HardEvent::V_S>();
            for (uint32_t s = 0; s < n; ++s) {
                float w = small.GetValue(s);
                total += w * statsLocal.GetValue((s0 + s) * STAT_SLOT + 1);
                LocalTensor<float> p = partQ_.AllocTensor<float>();
                DataCopy(p, partGm_[static_cast<uint64_t>(firstUnit + s0 + s) * dim_], dim_);
                partQ_.EnQue(p);
                LocalTensor<float> pd = partQ_.DeQue<float>();
                Axpy(acc, pd, w, dim_);
                partQ_.FreeTensor(pd);
            }
        }
        Muls(acc, acc, 1.0f / total, dim_);
        LocalTensor<T> out = outQ_.AllocTensor<T>();
        FromFloat(out, acc, dim_);
        outQ_.EnQue(out);
        LocalTensor<T> res = outQ_.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(dim_ * sizeof(T)), 0, 0, 0};
        DataCopyPad(oGm_[static_cast<uint64_t>(qi) * dim_], res, cp);
        outQ_.FreeTensor(res);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> rowQ_;
    TQue<QuePosition::VECIN, BUFFER_NUM> partQ_;
    TQue<QuePosition::VECOUT, 1> outQ_;
    TBuf<TPosition::VECCALC> qBuf_, accBuf_, rowBuf_, workBuf_, smallBuf_;
    GlobalTensor<T> qGm_, kGm_, vGm_, oGm_;
    GlobalTensor<float> partGm_, statGm_;
    SplitCacheDecodeTilingData td_;
    uint32_t dim_ = 0;
};

extern "C" __global__ __aicore__ void split_cache_decode_attend_custom(GM_ADDR query, GM_ADDR key_cache,
                                                                       GM_ADDR value_cache, GM_ADDR out,
                                                                       GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR usrWs = GetUserWorkspace(workspace);
    if (usrWs == nullptr) {
        return;
    }
    if (TILING_KEY_IS(1)) {
        SplitCacheDecode<half> op;
        op.Init(query, key_cache, value_cache, out, usrWs, td);
        op.Process();
    } else if (TILING_KEY_IS(0)) {
        SplitCacheDecode<float> op;
        op.Init(query, key_cache, value_cache, out, usrWs, td);
        op.Process();
    }
}
"""

python_bind_src = """
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// softmax(Q K^T / sqrt(d)) V with Q (B, q_len, D) against cached K/V (B, kv_len, D)
at::Tensor split_cache_decode_attend_impl_npu(const at::Tensor &query, const at::Tensor &keyCache,
                                              const at::Tensor &valueCache)
{
    TORCH_CHECK(query.dim() == 3 && keyCache.dim() == 3 && valueCache.dim() == 3, "expected 3-D tensors");
    TORCH_CHECK(keyCache.sizes() == valueCache.sizes(), "key/value cache shapes differ");
    at::Tensor q = query.contiguous();
    at::Tensor k = keyCache.contiguous();
    at::Tensor v = valueCache.contiguous();
    at::Tensor out = at::empty({q.size(0), q.size(1), v.size(2)}, q.options());
    EXEC_NPU_CMD(aclnnSplitCacheDecodeAttendCustom, q, k, v, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("split_cache_decode_attend_custom", &split_cache_decode_attend_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("split_cache_decode_attend_custom", &split_cache_decode_attend_impl_npu,
          "decode attention over a KV cache (split-kv)");
}
"""
