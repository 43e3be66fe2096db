project_json_src='''
[
    {
        "op": "BandedWindowAttentionCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "q", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "k", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "v", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "output_desc": [
            {"name": "o", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "attr": [
            {"name": "window", "param_type": "required", "type": "int"},
            {"name": "scale", "param_type": "required", "type": "float"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(BandedWindowAttentionTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, heads);        // batch * num_heads, leading dim of q/k/v
  TILING_DATA_FIELD_DEF(uint32_t, seqLen);
  TILING_DATA_FIELD_DEF(uint32_t, headDim);
  TILING_DATA_FIELD_DEF(uint32_t, window);       // key j visible to query i iff i-w <= j < i+w
  TILING_DATA_FIELD_DEF(uint32_t, qBlock);       // query rows per work item
  TILING_DATA_FIELD_DEF(uint32_t, kvRowsMax);    // qBlock + 2*window - 1, capped by seqLen
  TILING_DATA_FIELD_DEF(uint32_t, blocksPerHead);
  TILING_DATA_FIELD_DEF(uint32_t, totalBlocks);
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(BandedWindowAttentionCustom, BandedWindowAttentionTilingData)
}
"""

host_operator_src="""
#include "banded_window_attention_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include <algorithm>

namespace optiling {
namespace {
constexpr uint64_t UB_RESERVE = 16 * 1024;

// Picks the largest query block whose K/V window plus scratch fits in UB.
uint32_t ChooseQueryBlock(uint32_t seqLen, uint32_t headDim, uint32_t window, uint32_t tBytes, uint64_t ub)
{
    uint64_t kvRowBytes = 2ULL * headDim * (2 * tBytes + (tBytes == 4 ? 0 : 4));   // K and V, 2 bufs (+fp32 copy)
    uint64_t qRowBytes = 2ULL * headDim * 2 * tBytes + headDim * 4 * 2;            // q/o queues + fp32 q/o
    // per-row scratch: products (kv rows x headDim), scores, exp
    uint64_t scratchPerKv = headDim * 4 + 16;
    uint32_t best = 1;
    for (uint32_t qb = 1; qb <= seqLen; qb *= 2) {
        uint64_t kvRows = std::min<uint64_t>(seqLen, qb + 2ULL * window - 1);
        uint64_t need = kvRows * (kvRowBytes + scratchPerKv) + qb * qRowBytes + UB_RESERVE;
        if (need > ub) {
            break;
        }
        best = qb;
        if (qb >= 64) {
            break;
        }
    }
    return best;
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t coreNum = platform.GetCoreNumAiv();

    const gert::Shape& qs = context->GetInputShape(0)->GetStorageShape();
    uint32_t heads = static_cast<uint32_t>(qs.GetDim(0));
    uint32_t seqLen = static_cast<uint32_t>(qs.GetDim(1));
    uint32_t headDim = static_cast<uint32_t>(qs.GetDim(2));
    auto attrs = context->GetAttrs();
    uint32_t window = static_cast<uint32_t>(*attrs->GetInt(0));
    float scale = *attrs->GetFloat(1);

    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t tBytes = dt == ge::DT_FLOAT16 ? 2 : 4;

    uint32_t qBlock = ChooseQueryBlock(seqLen, headDim, window, tBytes, ub);
    uint32_t blocksPerHead = (seqLen + qBlock - 1) / qBlock;

    BandedWindowAttentionTilingData td;
    td.set_heads(heads);
    td.set_seqLen(seqLen);
    td.set_headDim(headDim);
    td.set_window(window);
    td.set_qBlock(qBlock);
    td.set_kvRowsMax(std::min<uint32_t>(seqLen, qBlock + 2 * window - 1));
    td.set_blocksPerHead(blocksPerHead);
    td.set_totalBlocks(heads * blocksPerHead);
    td.set_scale(scale);

    context->SetBlockDim(std::max<uint32_t>(1, std::min<uint32_t>(coreNum, heads * blocksPerHead)));
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 2 : 1);
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
class BandedWindowAttentionCustom : public OpDef {
public:
    explicit BandedWindowAttentionCustom(const char* name) : OpDef(name)
    {
        const char* ins[] = {"q", "k", "v"};
        for (const char* n : ins) {
            this->Input(n)
                .ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
                .Format({ge::FORMAT_ND, ge::FORMAT_ND})
                .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        }
        this->Output("o")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("window").Int();
        this->Attr("scale").Float();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(BandedWindowAttentionCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t FP32_PER_REPEAT = 64;

__aicore__ inline uint32_t DivUp(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

__aicore__ inline void SyncVS()
{
    event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
    SetFlag<HardEvent::V_S>(ev);
    WaitFlag<HardEvent::V_S>(ev);
}

__aicore__ inline void SyncSV()
{
    event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
    SetFlag<HardEvent::S_V>(ev);
    WaitFlag<HardEvent::S_V>(ev);
}

// Dot products of one query against `rows` consecutive key rows.
// prod must hold at least DivUp(rows*headDim, 64)*64 floats.
class WindowScorer {
public:
    __aicore__ inline void Run(const LocalTensor<float>& scores, const LocalTensor<float>& prod,
                               const LocalTensor<float>& keys, const LocalTensor<float>& q,
                               uint32_t rows, uint32_t headDim)
    {
        for (uint32_t j = 0; j < rows; ++j) {
            Mul(prod[j * headDim], keys[j * headDim], q, headDim);
        }
        PipeBarrier<PIPE_V>();
        if (headDim <= FP32_PER_REPEAT) {
            // one repeat per key row
            WholeReduceSum<float>(scores, prod, headDim, rows, 1, 1, headDim / 8);
            return;
        }
        // 64-wide partial sums, then pairwise folds down to one value per row
        uint32_t parts = headDim / FP32_PER_REPEAT;
        WholeReduceSum<float>(scores, prod, FP32_PER_REPEAT, rows * parts, 1, 1, 8);
        PipeBarrier<PIPE_V>();
        while (parts > 1) {
            uint32_t n = rows * parts;
            PairReduceSum<float>(scores, scores, DivUp(n, FP32_PER_REPEAT), FP32_PER_REPEAT, 1, 1, 8);
            PipeBarrier<PIPE_V>();
            parts >>= 1;
        }
    }
};

template <typename T>
class BandedWindowAttentionKernel {
public:
    __aicore__ inline BandedWindowAttentionKernel() {}

    __aicore__ inline void Init(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR o,
                                const BandedWindowAttentionTilingData& t)
    {
        td = t;
        hd = td.headDim;
        qGm.SetGlobalBuffer((__gm__ T*)q);
        kGm.SetGlobalBuffer((__gm__ T*)k);
        vGm.SetGlobalBuffer((__gm__ T*)v);
        oGm.SetGlobalBuffer((__gm__ T*)o);

        uint32_t kvElems = td.kvRowsMax * hd;
        uint32_t qElems = td.qBlock * hd;
        pipe.InitBuffer(kQ, BUFFER_NUM, kvElems * sizeof(T));
        pipe.InitBuffer(vQ, BUFFER_NUM, kvElems * sizeof(T));
        pipe.InitBuffer(qQ, BUFFER_NUM, qElems * sizeof(T));
        pipe.InitBuffer(oQ, BUFFER_NUM, qElems * sizeof(T));
        if constexpr (!IsSameType<T, float>::value) {
            pipe.InitBuffer(kF, kvElems * sizeof(float));
            pipe.InitBuffer(vF, kvElems * sizeof(float));
        }
        pipe.InitBuffer(qF, qElems * sizeof(float));
        pipe.InitBuffer(oF, qElems * sizeof(float));
        pipe.InitBuffer(prodBuf, DivUp(kvElems, FP32_PER_REPEAT) * FP32_PER_REPEAT * sizeof(float));
        pipe.InitBuffer(scoreBuf, DivUp(td.kvRowsMax * (hd > 64 ? hd / 64 : 1), 64) * 64 * sizeof(float));
        pipe.InitBuffer(workBuf, DivUp(td.kvRowsMax, 64) * 64 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t blk = GetBlockIdx(); blk < td.totalBlocks; blk += GetBlockNum()) {
            uint32_t head = blk / td.blocksPerHead;
            uint32_t q0 = (blk % td.blocksPerHead) * td.qBlock;
            uint32_t q1 = q0 + td.qBlock < td.seqLen ? q0 + td.qBlock : td.seqLen;
            uint32_t k0 = q0 > td.window ? q0 - td.window : 0;
            uint32_t k1 = q1 - 1 + td.window < td.seqLen ? q1 - 1 + td.window : td.seqLen;
            CopyIn(head, q0, q1 - q0, k0, k1 - k0);
            Compute(q0, q1 - q0, k0);
            CopyOut(head, q0, q1 - q0);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t head, uint32_t q0, uint32_t nq, uint32_t k0, uint32_t nk)
    {
        uint64_t headOff = static_cast<uint64_t>(head) * td.seqLen * hd;
        LocalTensor<T> ql = qQ.AllocTensor<T>();
        LocalTensor<T> kl = kQ.AllocTensor<T>();
        LocalTensor<T> vl = vQ.AllocTensor<T>();
        DataCopy(ql, qGm[headOff + static_cast<uint64_t>(q0) * hd], nq * hd);
        DataCopy(kl, kGm[headOff + static_cast<uint64_t>(k0) * hd], nk * hd);
        DataCopy(vl, vGm[headOff + static_cast<uint64_t>(k0) * hd], nk * hd);
        qQ.EnQue(ql);
        kQ.EnQue(kl);
        vQ.EnQue(vl);
    }

    __aicore__ inline void Compute(uint32_t q0, uint32_t nq, uint32_t k0)
    {
        LocalTensor<T> ql = qQ.DeQue<T>();
        LocalTensor<T> kl = kQ.DeQue<T>();
        LocalTensor<T> vl = vQ.DeQue<T>();
        LocalTensor<float> qf = qF.Get<float>();
        LocalTensor<float> of = oF.Get<float>();
        LocalTensor<float> keys;
        LocalTensor<float> vals;
        uint32_t kvElems = td.kvRowsMax * hd;
        if constexpr (IsSameType<T, float>::value) {
            keys = kl;
            vals = vl;
            DataCopy(qf, ql, nq * hd);
        } else {
            keys = kF.Get<float>();
            vals = vF.Get<float>();
            Cast(keys, kl, RoundMode::CAST_NONE, kvElems);
            Cast(vals, vl, RoundMode::CAST_NONE, kvElems);
            Cast(qf, ql, RoundMode::CAST_NONE, nq * hd);
        }
        // fold the softmax scale into q once
        Muls(qf, qf, td.scale, nq * hd);
        PipeBarrier<PIPE_V>();

        LocalTensor<float> prod = prodBuf.Get<float>();
        LocalTensor<float> scores = scoreBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        WindowScorer scorer;

        for (uint32_t r = 0; r < nq; ++r) {
            uint32_t i = q0 + r;
            uint32_t lo = i > td.window ? i - td.window : 0;
            uint32_t hi = i + td.window < td.seqLen ? i + td.window : td.seqLen;
            uint32_t js = lo - k0;
            uint32_t nk = hi - lo;
            LocalTensor<float> orow = of[r * hd];

            scorer.Run(scores, prod, keys[js * hd], qf[r * hd], nk, hd);

            // numerically stable softmax over the nk visible keys
            ReduceMax<float>(work, scores, work, nk, false);
            SyncVS();
            float mx = work.GetValue(0);
            SyncSV();
            Adds(scores, scores, -mx, nk);
            PipeBarrier<PIPE_V>();
            Exp(scores, scores, nk);
            PipeBarrier<PIPE_V>();
            ReduceSum<float>(work, scores, work, nk);
            SyncVS();
            float inv = 1.0f / work.GetValue(0);

            Duplicate(orow, 0.0f, hd);
            PipeBarrier<PIPE_V>();
            for (uint32_t j = 0; j < nk; ++j) {
                float p = scores.GetValue(j) * inv;
                SyncSV();
                Axpy(orow, vals[(js + j) * hd], p, hd);
                PipeBarrier<PIPE_V>();
            }
        }

        LocalTensor<T> ol = oQ.AllocTensor<T>();
        if constexpr (IsSameType<T, float>::value) {
            DataCopy(ol, of, nq * hd);
        } else {
            Cast(ol, of, RoundMode::CAST_ROUND, nq * hd);
        }
        oQ.EnQue(ol);
        qQ.FreeTensor(ql);
        kQ.FreeTensor(kl);
        vQ.FreeTensor(vl);
    }

    __aicore__ inline void CopyOut(uint32_t head, uint32_t q0, uint32_t nq)
    {
        LocalTensor<T> ol = oQ.DeQue<T>();
        uint64_t off = static_cast<uint64_t>(head) * td.seqLen * hd + static_cast<uint64_t>(q0) * hd;
        DataCopy(oGm[off], ol, nq * hd);
        oQ.FreeTensor(ol);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> qQ, kQ, vQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> oQ;
    TBuf<TPosition::VECCALC> kF, vF, qF, oF;   // fp32 working copies
    TBuf<TPosition::VECCALC> prodBuf;          // q * k elementwise products
    TBuf<TPosition::VECCALC> scoreBuf;         // partial sums, then probabilities
    TBuf<TPosition::VECCALC> workBuf;          // reduce scratch / scalar result
    GlobalTensor<T> qGm, kGm, vGm, oGm;
    BandedWindowAttentionTilingData td;
    uint32_t hd = 0;
};

extern "C" __global__ __aicore__ void banded_window_attention_custom(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR o,
                                                                     GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        BandedWindowAttentionKernel<float> op;
        op.Init(q, k, v, o, td);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        BandedWindowAttentionKernel<half> op;
        op.Init(q, k, v, o, td);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <cmath>

// (B, L, D) -> (B*H, L, D/H)
static at::Tensor SplitHeads(const at::Tensor& t, int64_t heads)
{
    int64_t b = t.size(0), l = t.size(1), d = t.size(2);
    return t.view({b, l, heads, d / heads}).transpose(1, 2).contiguous().view({b * heads, l, d / heads});
}

at::Tensor banded_window_attention_impl_npu(const at::Tensor& x,
                                            const at::Tensor& in_proj_weight, const at::Tensor& in_proj_bias,
                                            const at::Tensor& out_proj_weight, const at::Tensor& out_proj_bias,
                                            int64_t num_heads, int64_t window)
{
    int64_t b = x.size(0), l = x.size(1), d = x.size(2);
    int64_t hd = d / num_heads;
    TORCH_CHECK(hd % 8 == 0 && (hd <= 64 || hd % 64 == 0), "head dim layout not supported");

    // packed q/k/v projection stays on the stock linear
    at::Tensor qkv = at::linear(x, in_proj_weight, in_proj_bias);
    auto parts = qkv.chunk(3, -1);
    at::Tensor q = SplitHeads(parts[0], num_heads);
    at::Tensor k = SplitHeads(parts[1], num_heads);
    at::Tensor v = SplitHeads(parts[2], num_heads);

    at::Tensor o = at::empty_like(q);
    double scale = 1.0 / std::sqrt(static_cast<double>(hd));
    EXEC_NPU_CMD(aclnnBandedWindowAttentionCustom, q, k, v, window, scale, o);

    at::Tensor merged = o.view({b, num_heads, l, hd}).transpose(1, 2).contiguous().view({b, l, d});
    return at::linear(merged, out_proj_weight, out_proj_bias);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("banded_window_attention_custom", &banded_window_attention_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("banded_window_attention_custom", &banded_window_attention_impl_npu,
          "multi-head attention restricted to a +-window band");
}
"""
