project_json_src='''
[
    {
        "op": "BandedWindowAttentionCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "q",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            },
            {
                "name": "kt",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            },
            {
                "name": "v",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            }
        ],
        "output_desc": [
            {
                "name": "o",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            }
        ],
        "attr": [
            {
                "name": "window",
                "param_type": "required",
                "type": "int"
            },
            {
                "name": "scale",
                "param_type": "required",
                "type": "float"
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(BandedWindowAttentionTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, heads);        // batch * num_heads
  TILING_DATA_FIELD_DEF(uint32_t, seqLen);
  TILING_DATA_FIELD_DEF(uint32_t, headDim);
  TILING_DATA_FIELD_DEF(uint32_t, window);       // key j visible to query i iff i-w <= j < i+w
  TILING_DATA_FIELD_DEF(uint32_t, qBlock);       // queries sharing one K/V window load
  TILING_DATA_FIELD_DEF(uint32_t, winPitch);     // padded key count of a window row in UB
  TILING_DATA_FIELD_DEF(uint32_t, blocksPerHead);
  TILING_DATA_FIELD_DEF(uint32_t, tasksPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, totalTasks);
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(BandedWindowAttentionCustom, BandedWindowAttentionTilingData)
}
"""

host_operator_src="""
#include "banded_window_attention_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint64_t UB_BUDGET = 160 * 1024;

static uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

// UB bytes needed for one query block: K^T and V windows (single), Q/O tiles (double buffered),
// fp32 staging copies when the input is fp16, plus score and reduction scratch.
static uint64_t BlockFootprint(uint32_t qb, uint32_t pitch, uint32_t hd, uint32_t ts)
{
    uint64_t win = (uint64_t)hd * pitch;
    uint64_t bytes = 2 * win * ts + 4ULL * qb * hd * ts;
    if (ts == 2) {
        bytes += 2 * win * 4 + (uint64_t)qb * hd * 4 + hd * 4;
    }
    bytes += 3ULL * pitch * 4 + 1024;
    return bytes;
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    BandedWindowAttentionTilingData tiling;
    const gert::Shape& qs = context->GetInputShape(0)->GetStorageShape();
    uint32_t heads = static_cast<uint32_t>(qs.GetDim(0));
    uint32_t seq = static_cast<uint32_t>(qs.GetDim(1));
    uint32_t hd = static_cast<uint32_t>(qs.GetDim(2));
    const auto* attrs = context->GetAttrs();
    uint32_t window = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    float scale = *attrs->GetAttrPointer<float>(1);

    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t ts = (dt == ge::DT_FLOAT16) ? 2 : 4;
    uint32_t elemAlign = 32 / ts;

    uint32_t qb = 64;
    uint32_t pitch = 0;
    while (true) {
        uint32_t span = qb + 2 * window;
        if (span > seq) {
            span = seq;
        }
        pitch = AlignUp(span, elemAlign);
        if (qb == 1 || BlockFootprint(qb, pitch, hd, ts) <= UB_BUDGET) {
            break;
        }
        qb /= 2;
    }
    if (qb > seq) {
        qb = seq;
    }

    uint32_t blocksPerHead = (seq + qb - 1) / qb;
    uint32_t total = heads * blocksPerHead;
    auto ascendc = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = ascendc.GetCoreNumAiv();
    uint32_t perCore = (total + cores - 1) / cores;
    uint32_t used = (total + perCore - 1) / perCore;

    context->SetBlockDim(used == 0 ? 1 : used);
    context->SetTilingKey(ts == 2 ? 1 : 0);
    tiling.set_heads(heads);
    tiling.set_seqLen(seq);
    tiling.set_headDim(hd);
    tiling.set_window(window);
    tiling.set_qBlock(qb);
    tiling.set_winPitch(pitch);
    tiling.set_blocksPerHead(blocksPerHead);
    tiling.set_tasksPerCore(perCore);
    tiling.set_totalTasks(total);
    tiling.set_scale(scale);
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
    return GRAPH_SUCCESS;
}
}

namespace ops {
class BandedWindowAttentionCustom : public OpDef {
public:
    explicit BandedWindowAttentionCustom(const char* name) : OpDef(name)
    {
        this->Input("q").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("kt").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("v").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("o").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
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
constexpr float MASKED = -3.0e38f;

__aicore__ inline void VecToScalar()
{
    event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
    SetFlag<HardEvent::V_S>(e);
    WaitFlag<HardEvent::V_S>(e);
}
__aicore__ inline void ScalarToVec()
{
    event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
    SetFlag<HardEvent::S_V>(e);
    WaitFlag<HardEvent::S_V>(e);
}

// Key range [lo, hi) visible to query i under the band mask.
struct Band {
    uint32_t lo;
    uint32_t hi;
    __aicore__ inline Band(uint32_t i, uint32_t w, uint32_t seq)
    {
        lo = i > w ? i - w : 0;
        hi = (i + w) < seq ? (i + w) : seq;
    }
};

template <typename T>
class BandedWindowAttentionKernel {
public:
    __aicore__ inline BandedWindowAttentionKernel() {}

    __aicore__ inline void Init(GM_ADDR q, GM_ADDR kt, GM_ADDR v, GM_ADDR o,
                                const BandedWindowAttentionTilingData& td)
    {
        seq = td.seqLen;
        hd = td.headDim;
        win = td.window;
        qb = td.qBlock;
        pitch = td.winPitch;
        blocksPerHead = td.blocksPerHead;
        scale = td.scale;
        taskBegin = GetBlockIdx() * td.tasksPerCore;
        taskEnd = taskBegin + td.tasksPerCore;
        if (taskEnd > td.totalTasks) {
            taskEnd = td.totalTasks;
        }

        uint64_t headElems = (uint64_t)seq * hd;
        qGm.SetGlobalBuffer((__gm__ T*)q, headElems * td.heads);
        ktGm.SetGlobalBuffer((__gm__ T*)kt, headElems * td.heads);
        vGm.SetGlobalBuffer((__gm__ T*)v, headElems * td.heads);
        oGm.SetGlobalBuffer((__gm__ T*)o, headElems * td.heads);

        pipe.InitBuffer(qQ, BUFFER_NUM, qb * hd * sizeof(T));
        pipe.InitBuffer(oQ, BUFFER_NUM, qb * hd * sizeof(T));
        pipe.InitBuffer(ktQ, 1, hd * pitch * sizeof(T));
        pipe.InitBuffer(vQ, 1, pitch * hd * sizeof(T));
        pipe.InitBuffer(scoreBuf, pitch * sizeof(float));
        pipe.InitBuffer(workBuf, pitch * sizeof(float));
        pipe.InitBuffer(redBuf, 64);
        if constexpr (sizeof(T) == 2) {
            pipe.InitBuffer(ktF, hd * pitch * sizeof(float));
            pipe.InitBuffer(vF, pitch * hd * sizeof(float));
            pipe.InitBuffer(qF, qb * hd * sizeof(float));
            pipe.InitBuffer(rowF, hd * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        for (uint32_t t = taskBegin; t < taskEnd; ++t) {
            uint32_t head = t / blocksPerHead;
            uint32_t q0 = (t % blocksPerHead) * qb;
            uint32_t nq = (seq - q0) < qb ? (seq - q0) : qb;
            RunBlock(head, q0, nq);
        }
    }

private:
    __aicore__ inline void RunBlock(uint32_t head, uint32_t q0, uint32_t nq)
    {
        uint64_t base = (uint64_t)head * seq * hd;
        uint32_t ws = q0 > win ? q0 - win : 0;
        uint32_t we = (q0 + nq - 1 + win) < seq ? (q0 + nq - 1 + win) : seq;
        uint32_t nWin = we - ws;

        LoadBlock(base, q0, nq, ws, nWin);
        LocalTensor<T> qT = qQ.DeQue<T>();
        LocalTensor<T> ktT = ktQ.DeQue<T>();
        LocalTensor<T> vT = vQ.DeQue<T>();
        LocalTensor<float> qf, ktf, vf;
        Widen(qT, ktT, vT, nq, qf, ktf, vf);

        LocalTensor<T> oT = oQ.AllocTensor<T>();
        for (uint32_t r = 0; r < nq; ++r) {
            Band band(q0 + r, win, seq);
            AttendRow(qf[r * hd], ktf, vf, ws, nWin, band, oT[r * hd]);
        }
        oQ.EnQue(oT);
        qQ.FreeTensor(qT);
        ktQ.FreeTensor(ktT);
        vQ.FreeTensor(vT);

        LocalTensor<T> out = oQ.DeQue<T>();
        DataCopy(oGm[base + (uint64_t)q0 * hd], out, nq * hd);
        oQ.FreeTensor(out);
    }

    __aicore__ inline void LoadBlock(uint64_t base, uint32_t q0, uint32_t nq, uint32_t ws, uint32_t nWin)
    {
        LocalTensor<T> qT = qQ.AllocTensor<T>();
        DataCopy(qT, qGm[base + (uint64_t)q0 * hd], nq * hd);
        qQ.EnQue(qT);

        // K^T rows are strided by seq in GM; each UB row is padded to a 32B multiple (= pitch)
        LocalTensor<T> ktT = ktQ.AllocTensor<T>();
        DataCopyExtParams kp{static_cast<uint16_t>(hd), static_cast<uint32_t>(nWin * sizeof(T)),
                             static_cast<uint32_t>((seq - nWin) * sizeof(T)), 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(ktT, ktGm[base + ws], kp, pad);
        ktQ.EnQue(ktT);

        LocalTensor<T> vT = vQ.AllocTensor<T>();
        DataCopy(vT, vGm[base + (uint64_t)ws * hd], nWin * hd);
        vQ.EnQue(vT);
    }

    __aicore__ inline void Widen(LocalTensor<T>& qT, LocalTensor<T>& ktT, LocalTensor<T>& vT, uint32_t nq,
                                 LocalTensor<float>& qf, LocalTensor<float>& ktf, LocalTensor<float>& vf)
    {
        if constexpr (sizeof(T) == 2) {
            qf = qF.Get<float>();
            ktf = ktF.Get<float>();
            vf = vF.Get<float>();
            Cast(qf, qT, RoundMode::CAST_NONE, nq * hd);
            Cast(ktf, ktT, RoundMode::CAST_NONE, hd * pitch);
            Cast(vf, vT, RoundMode::CAST_NONE, pitch * hd);
        } else {
            qf = qT;
            ktf = ktT;
            vf = vT;
        }
        VecToScalar();
    }

    __aicore__ inline void AttendRow(const LocalTensor<float>& qRow, const LocalTensor<float>& ktf,
                                     const LocalTensor<float>& vf, uint32_t ws, uint32_t nWin,
                                     const Band& band, const LocalTensor<T>& oRow)
    {
        LocalTensor<float> s = scoreBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();

        // s[j] = scale * sum_d q[d] * K^T[d, j] over the whole block window
        Duplicate(s, 0.0f, pitch);
        for (uint32_t d = 0; d < hd; ++d) {
            float qd = qRow.GetValue(d) * scale;
            Axpy(s, ktf[d * pitch], qd, nWin);
        }
        VecToScalar();
        for (uint32_t j = ws; j < band.lo; ++j) {
            s.SetValue(j - ws, MASKED);
        }
        for (uint32_t j = band.hi; j < ws + nWin; ++j) {
            s.SetValue(j - ws, MASKED);
        }
        ScalarToVec();

        ReduceMax(red, s, work, nWin);
        VecToScalar();
        float mx = red.GetValue(0);
        ScalarToVec();
        Adds(s, s, -mx, nWin);
        Exp(s, s, nWin);
        ReduceSum(red, s, work, nWin);
        VecToScalar();
        float inv = 1.0f / red.GetValue(0);

        LocalTensor<float> acc;
        if constexpr (sizeof(T) == 2) {
            acc = rowF.Get<float>();
        } else {
            acc = oRow;
        }
        ScalarToVec();
        Duplicate(acc, 0.0f, hd);
        for (uint32_t j = band.lo; j < band.hi; ++j) {
            float p = s.GetValue(j - ws) * inv;
            Axpy(acc, vf[(j - ws) * hd], p, hd);
        }
        if constexpr (sizeof(T) == 2) {
            Cast(oRow, acc, RoundMode::CAST_ROUND, hd);
        }
        VecToScalar();
    }

    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> qQ;
    TQue<TPosition::VECOUT, BUFFER_NUM> oQ;
    TQue<TPosition::VECIN, 1> ktQ, vQ;
    TBuf<TPosition::VECCALC> scoreBuf, workBuf, redBuf, ktF, vF, qF, rowF;
    GlobalTensor<T> qGm, ktGm, vGm, oGm;
    uint32_t seq = 0, hd = 0, win = 0, qb = 0, pitch = 0, blocksPerHead = 0;
    uint32_t taskBegin = 0, taskEnd = 0;
    float scale = 1.0f;
};

extern "C" __global__ __aicore__ void banded_window_attention_custom(GM_ADDR q, GM_ADDR kt, GM_ADDR v, GM_ADDR o,
                                                                    GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        BandedWindowAttentionKernel<float> op;
        op.Init(q, kt, v, o, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        BandedWindowAttentionKernel<half> op;
        op.Init(q, kt, v, o, td);
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

// Core: o = softmax(q k^T * scale, band mask) v on (B*H, S, Dh) tensors; k is passed transposed.
at::Tensor banded_window_attention_core(const at::Tensor& q, const at::Tensor& kt, const at::Tensor& v,
                                        int64_t window, double scale)
{
    at::Tensor o = at::empty_like(q);
    float sc = static_cast<float>(scale);
    EXEC_NPU_CMD(aclnnBandedWindowAttentionCustom, q, kt, v, window, sc, o);
    return o;
}

// Full nn.MultiheadAttention forward (self-attention, batch_first) around the banded core.
at::Tensor banded_window_attention_impl_npu(const at::Tensor& x, const at::Tensor& in_proj_weight,
                                            const at::Tensor& in_proj_bias, const at::Tensor& out_proj_weight,
                                            const at::Tensor& out_proj_bias, int64_t num_heads, int64_t window)
{
    const int64_t B = x.size(0);
    const int64_t S = x.size(1);
    const int64_t E = x.size(2);
    const int64_t Dh = E / num_heads;

    auto qkv = at::linear(x, in_proj_weight, in_proj_bias).chunk(3, -1);
    auto split = [&](const at::Tensor& t) {
        return t.reshape({B, S, num_heads, Dh}).permute({0, 2, 1, 3});
    };
    at::Tensor q = split(qkv[0]).contiguous().view({B * num_heads, S, Dh});
    at::Tensor kt = split(qkv[1]).transpose(-1, -2).contiguous().view({B * num_heads, Dh, S});
    at::Tensor v = split(qkv[2]).contiguous().view({B * num_heads, S, Dh});

    at::Tensor o = banded_window_attention_core(q, kt, v, window, 1.0 / std::sqrt(static_cast<double>(Dh)));
    o = o.view({B, num_heads, S, Dh}).permute({0, 2, 1, 3}).reshape({B, S, E});
    return at::linear(o, out_proj_weight, out_proj_bias);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("banded_window_attention_custom", &banded_window_attention_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("banded_window_attention_custom", &banded_window_attention_impl_npu,
          "multi-head self-attention restricted to a +-window band");
    m.def("banded_window_attention_core", &banded_window_attention_core, "banded attention core");
}
"""
