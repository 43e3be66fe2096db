project_json_src='''
[
    {
        "op": "PrefixMaskedAttentionCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "q", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "k_t", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "v", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "output_desc": [
            {"name": "o", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "attr": [
            {"name": "softmax_scale", "param_type": "optional", "type": "float", "default_value": "1.0"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(PrefixMaskedAttentionTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, heads);        // batch * num_heads
  TILING_DATA_FIELD_DEF(uint32_t, seqLen);
  TILING_DATA_FIELD_DEF(uint32_t, headDim);
  TILING_DATA_FIELD_DEF(uint32_t, seqPad);       // seqLen rounded to 32B of float
  TILING_DATA_FIELD_DEF(uint32_t, qRows);        // query rows per UB chunk
  TILING_DATA_FIELD_DEF(uint32_t, headsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, headsTail);
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(PrefixMaskedAttentionCustom, PrefixMaskedAttentionTilingData)
}
"""

host_operator_src="""
#include "prefix_masked_attention_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint64_t UB_RESERVE = 8 * 1024;

inline uint32_t RoundUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

// K^T and V of one head stay resident (float), the staging queue is double buffered,
// and the remaining space is spent on query rows (in + out, double buffered).
uint32_t ChooseQueryRows(uint64_t ubSize, uint32_t seqPad, uint32_t dim, uint32_t elem)
{
    uint64_t resident = 2ULL * seqPad * dim * sizeof(float);
    uint64_t staging = 2ULL * seqPad * dim * elem;
    uint64_t scratch = (uint64_t)seqPad * sizeof(float) * 2 + dim * sizeof(float) * 2;
    if (ubSize < resident + staging + scratch + UB_RESERVE) {
        return 0;
    }
    uint64_t left = ubSize - resident - staging - scratch - UB_RESERVE;
    uint64_t perRow = 4ULL * dim * elem + dim * sizeof(float);
    uint64_t rows = left / perRow;
    if (rows > 64) rows = 64;
    return static_cast<uint32_t>(rows);
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    PrefixMaskedAttentionTilingData tiling;
    auto qShape = context->GetInputShape(0)->GetStorageShape();
    uint32_t heads = qShape.GetDim(0);
    uint32_t seq = qShape.GetDim(1);
    uint32_t dim = qShape.GetDim(2);
    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t elem = dt == ge::DT_FLOAT16 ? 2 : 4;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t seqPad = RoundUp(seq, 16);
    uint32_t qRows = ChooseQueryRows(ubSize, seqPad, dim, elem);
    if (qRows == 0 || dim % 16 != 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t used = heads < cores ? heads : cores;

    const float* sc = context->GetAttrs()->GetFloat(0);
    tiling.set_heads(heads);
    tiling.set_seqLen(seq);
    tiling.set_headDim(dim);
    tiling.set_seqPad(seqPad);
    tiling.set_qRows(qRows);
    tiling.set_headsPerCore(heads / used);
    tiling.set_headsTail(heads % used);
    tiling.set_scale(sc == nullptr ? 1.0f : *sc);

    context->SetBlockDim(used);
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 1 : 0);
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
class PrefixMaskedAttentionCustom : public OpDef {
public:
    explicit PrefixMaskedAttentionCustom(const char* name) : OpDef(name)
    {
        this->Input("q").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("k_t").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("v").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("o").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("softmax_scale").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(PrefixMaskedAttentionCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
__aicore__ inline void ToF32(const LocalTensor<float>& dst, const LocalTensor<T>& src, uint32_t n)
{
    if constexpr (std::is_same<T, float>::value) {
        DataCopy(dst, src, n);
    } else {
        Cast(dst, src, RoundMode::CAST_NONE, n);
    }
}

template <typename T>
__aicore__ inline void FromF32(const LocalTensor<T>& dst, const LocalTensor<float>& src, uint32_t n)
{
    if constexpr (std::is_same<T, float>::value) {
        DataCopy(dst, src, n);
    } else {
        Cast(dst, src, RoundMode::CAST_ROUND, n);
    }
}

// Vector results are read back by the scalar unit (GetValue) -> V to S sync.
__aicore__ inline void VectorToScalar()
{
    event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
    SetFlag<HardEvent::V_S>(ev);
    WaitFlag<HardEvent::V_S>(ev);
}

// Softmax over the visible prefix [0, len) of one score row, returns 1/sum.
class PrefixSoftmax {
public:
    __aicore__ inline void Bind(const LocalTensor<float>& red, const LocalTensor<float>& work)
    {
        red_ = red;
        work_ = work;
    }
    __aicore__ inline float Run(const LocalTensor<float>& s, uint32_t len, float scale)
    {
        Muls(s, s, scale, len);
        ReduceMax<float>(red_, s, work_, len, false);
        VectorToScalar();
        float mx = red_.GetValue(0);
        Adds(s, s, -mx, len);
        Exp(s, s, len);
        ReduceSum<float>(red_, s, work_, len);
        VectorToScalar();
        return 1.0f / red_.GetValue(0);
    }

private:
    LocalTensor<float> red_, work_;
};

template <typename T>
class PrefixMaskedAttention {
public:
    __aicore__ inline PrefixMaskedAttention() {}
    __aicore__ inline void Init(GM_ADDR q, GM_ADDR kT, GM_ADDR v, GM_ADDR o, uint32_t heads, uint32_t seqLen,
                                uint32_t headDim, uint32_t seqPad, uint32_t qRows, uint32_t headsPerCore,
                                uint32_t headsTail, float scale)
    {
        S_ = seqLen;
        D_ = headDim;
        Sp_ = seqPad;
        qRows_ = qRows;
        scale_ = scale;
        uint32_t bid = GetBlockIdx();
        headCnt_ = headsPerCore + (bid < headsTail ? 1 : 0);
        head0_ = bid * headsPerCore + (bid < headsTail ? bid : headsTail);

        qGm_.SetGlobalBuffer((__gm__ T*)q);
        kGm_.SetGlobalBuffer((__gm__ T*)kT);
        vGm_.SetGlobalBuffer((__gm__ T*)v);
        oGm_.SetGlobalBuffer((__gm__ T*)o);

        pipe_.InitBuffer(stageQue_, BUFFER_NUM, Sp_ * D_ * sizeof(T));
        pipe_.InitBuffer(qQue_, BUFFER_NUM, qRows_ * D_ * sizeof(T));
        pipe_.InitBuffer(oQue_, BUFFER_NUM, qRows_ * D_ * sizeof(T));
        pipe_.InitBuffer(kBuf_, D_ * Sp_ * sizeof(float));      // K^T rows, each padded to Sp_
        pipe_.InitBuffer(vBuf_, Sp_ * D_ * sizeof(float));
        pipe_.InitBuffer(rowBuf_, qRows_ * D_ * sizeof(float)); // float output rows
        pipe_.InitBuffer(scoreBuf_, Sp_ * sizeof(float));
        pipe_.InitBuffer(qf_, D_ * sizeof(float));
        pipe_.InitBuffer(redBuf_, 64 * sizeof(float));
        pipe_.InitBuffer(workBuf_, Sp_ * sizeof(float));
        softmax_.Bind(redBuf_.Get<float>(), workBuf_.Get<float>());
    }

    __aicore__ inline void Process()
    {
        for (uint32_t h = 0; h < headCnt_; ++h) {
            uint64_t base = (uint64_t)(head0_ + h) * S_ * D_;
            LoadKeysValues(base);
            for (uint32_t r0 = 0; r0 < S_; r0 += qRows_) {
                uint32_t nr = S_ - r0 < qRows_ ? S_ - r0 : qRows_;
                CopyInQuery(base, r0, nr);
                ComputeRows(r0, nr);
                CopyOutRows(base, r0, nr);
            }
        }
    }

private:
    __aicore__ inline void LoadKeysValues(uint64_t base)
    {
        // K^T is [D, S]; each row lands on a Sp_-strided slot so vector ops stay aligned
        LocalTensor<T> st = stageQue_.AllocTensor<T>();
        uint32_t rowBytes = S_ * sizeof(T);
        uint32_t gapBlocks = (Sp_ * sizeof(T) - (rowBytes + 31) / 32 * 32) / 32;
        DataCopyExtParams kp{(uint16_t)D_, rowBytes, 0, gapBlocks, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(st, kGm_[base], kp, pad);
        stageQue_.EnQue(st);
        st = stageQue_.DeQue<T>();
        ToF32(kBuf_.Get<float>(), st, D_ * Sp_);
        stageQue_.FreeTensor(st);

        LocalTensor<T> sv = stageQue_.AllocTensor<T>();
        DataCopy(sv, vGm_[base], S_ * D_);
        stageQue_.EnQue(sv);
        sv = stageQue_.DeQue<T>();
        ToF32(vBuf_.Get<float>(), sv, S_ * D_);
        stageQue_.FreeTensor(sv);
    }

    __aicore__ inline void CopyInQuery(uint64_t base, uint32_t r0, uint32_t nr)
    {
        LocalTensor<T> qt = qQue_.AllocTensor<T>();
        DataCopy(qt, qGm_[base + (uint64_t)r0 * D_], nr * D_);
        qQue_.EnQue(qt);
    }

    __aicore__ inline void ComputeRows(uint32_t r0, uint32_t nr)
    {
        LocalTensor<T> qt = qQue_.DeQue<T>();
        LocalTensor<float> kT = kBuf_.Get<float>();
        LocalTensor<float> vv = vBuf_.Get<float>();
        LocalTensor<float> rows = rowBuf_.Get<float>();
        LocalTensor<float> sc = scoreBuf_.Get<float>();
        LocalTensor<float> qf = qf_.Get<float>();
        for (uint32_t r = 0; r < nr; ++r) {
            uint32_t i = r0 + r;
            uint32_t len = i + 1;               // causal: keys 0..i are visible
            ToF32(qf, qt[r * D_], D_);
            VectorToScalar();
            // scores[j] = sum_d q[d] * K^T[d][j]
            Duplicate(sc, 0.0f, Sp_);
            for (uint32_t d = 0; d < D_; ++d) {
                Axpy(sc, kT[d * Sp_], qf.GetValue(d), len);
            }
            float inv = softmax_.Run(sc, len, scale_);
            LocalTensor<float> out = rows[r * D_];
            Duplicate(out, 0.0f, D_);
            for (uint32_t j = 0; j < len; ++j) {
                Axpy(out, vv[j * D_], sc.GetValue(j), D_);
            }
            Muls(out, out, inv, D_);
        }
        qQue_.FreeTensor(qt);
        LocalTensor<T> ot = oQue_.AllocTensor<T>();
        FromF32(ot, rows, nr * D_);
        oQue_.EnQue(ot);
    }

    __aicore__ inline void CopyOutRows(uint64_t base, uint32_t r0, uint32_t nr)
    {
        LocalTensor<T> ot = oQue_.DeQue<T>();
        DataCopy(oGm_[base + (uint64_t)r0 * D_], ot, nr * D_);
        oQue_.FreeTensor(ot);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> stageQue_, qQue_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> oQue_;
    TBuf<TPosition::VECCALC> kBuf_, vBuf_, rowBuf_, scoreBuf_, qf_, redBuf_, workBuf_;
    GlobalTensor<T> qGm_, kGm_, vGm_, oGm_;
    PrefixSoftmax softmax_;
    uint32_t S_, D_, Sp_, qRows_, headCnt_, head0_;
    float scale_;
};

extern "C" __global__ __aicore__ void prefix_masked_attention_custom(GM_ADDR q, GM_ADDR kT, GM_ADDR v, GM_ADDR o,
                                                                     GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        PrefixMaskedAttention<float> op;
        op.Init(q, kT, v, o, td.heads, td.seqLen, td.headDim, td.seqPad, td.qRows, td.headsPerCore,
                td.headsTail, td.scale);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        PrefixMaskedAttention<half> op;
        op.Init(q, kT, v, o, td.heads, td.seqLen, td.headDim, td.seqPad, td.qRows, td.headsPerCore,
                td.headsTail, td.scale);
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

// nn.MultiheadAttention (batch_first) with a causal mask: projections through at::linear,
// the masked softmax(QK^T)V core in the custom kernel.
at::Tensor prefix_masked_attention_impl_npu(const at::Tensor& x, const at::Tensor& in_proj_weight,
                                            const at::Tensor& in_proj_bias, const at::Tensor& out_proj_weight,
                                            const at::Tensor& out_proj_bias, int64_t num_heads)
{
    const int64_t B = x.size(0);
    const int64_t S = x.size(1);
    const int64_t E = x.size(2);
    const int64_t Dh = E / num_heads;

    at::Tensor qkv = at::linear(x, in_proj_weight, in_proj_bias);
    auto parts = qkv.chunk(3, -1);
    auto split_heads = [&](const at::Tensor& t) {
        return t.reshape({B, S, num_heads, Dh}).permute({0, 2, 1, 3}).reshape({B * num_heads, S, Dh});
    };
    at::Tensor q = split_heads(parts[0]).contiguous();
    at::Tensor kT = split_heads(parts[1]).transpose(1, 2).contiguous();
    at::Tensor v = split_heads(parts[2]).contiguous();

    at::Tensor o = at::empty_like(q);
    float scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(Dh)));
    EXEC_NPU_CMD(aclnnPrefixMaskedAttentionCustom, q, kT, v, scale, o);

    at::Tensor merged = o.reshape({B, num_heads, S, Dh}).permute({0, 2, 1, 3}).reshape({B, S, E});
    return at::linear(merged, out_proj_weight, out_proj_bias);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("prefix_masked_attention_custom", &prefix_masked_attention_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("prefix_masked_attention_custom", &prefix_masked_attention_impl_npu,
          "causal multi-head self attention");
}
"""
