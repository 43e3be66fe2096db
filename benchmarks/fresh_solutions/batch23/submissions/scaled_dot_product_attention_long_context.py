project_json_src = '''
[
    {
        "op": "TemperedRowSoftmaxCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "scores", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]}
        ],
        "output_desc": [
            {"name": "probs", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]}
        ],
        "attr": [
            {"name": "temperature", "param_type": "required", "type": "float"}
        ]
    }
]
'''

host_tiling_src = """
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TemperedRowSoftmaxTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rowCount);
  TILING_DATA_FIELD_DEF(uint32_t, rowLen);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, rowsExtra);
  TILING_DATA_FIELD_DEF(uint32_t, chunkLen);      // columns per UB chunk
  TILING_DATA_FIELD_DEF(uint32_t, chunkCount);
  TILING_DATA_FIELD_DEF(uint32_t, resident);      // 1: a whole row fits in one chunk
  TILING_DATA_FIELD_DEF(float, temperature);      // multiplier applied to scores
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(TemperedRowSoftmaxCustom, TemperedRowSoftmaxTilingData)
}
"""

host_operator_src = """
#include "tempered_row_softmax_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t kDoubleBuffer = 2;

static uint32_t ChunkFor(uint64_t ubBytes, uint32_t rowLen)
{
    // in + out queues (x2 each) sized for fp32, plus fp32 work and reduce scratch
    uint64_t slots = 2 * kDoubleBuffer + 2;
    uint64_t chunk = (ubBytes - 4096) / (slots * sizeof(float));
    chunk = chunk / 64 * 64;
    uint32_t rowAligned = (rowLen + 63) / 64 * 64;
    return static_cast<uint32_t>(chunk < rowAligned ? chunk : rowAligned);
}

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubBytes = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubBytes);
    uint32_t aiv = plat.GetCoreNumAiv();

    const gert::Shape &s = context->GetInputShape(0)->GetStorageShape();
    size_t dims = s.GetDimNum();
    if (dims < 1) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rowLen = s.GetDim(dims - 1);
    uint32_t rows = 1;
    for (size_t i = 0; i + 1 < dims; ++i) {
        rows *= s.GetDim(i);
    }
    uint32_t used = rows < aiv ? rows : aiv;
    used = used == 0 ? 1 : used;

    uint32_t chunk = ChunkFor(ubBytes, rowLen);
    uint32_t chunks = (rowLen + chunk - 1) / chunk;

    TemperedRowSoftmaxTilingData td;
    td.set_rowCount(rows);
    td.set_rowLen(rowLen);
    td.set_rowsPerCore(rows / used);
    td.set_rowsExtra(rows % used);
    td.set_chunkLen(chunk);
    td.set_chunkCount(chunks);
    td.set_resident(chunks == 1 ? 1 : 0);
    td.set_temperature(*context->GetAttrs()->GetAttrPointer<float>(0));

    context->SetTilingKey(context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 1 : 0);
    context->SetBlockDim(used);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class TemperedRowSoftmaxCustom : public OpDef {
public:
    explicit TemperedRowSoftmaxCustom(const char *name) : OpDef(name)
    {
        this->Input("scores")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("probs")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("temperature").Float();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(TemperedRowSoftmaxCustom);
}
"""

kernel_src = """
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
__aicore__ inline void ToF32(const LocalTensor<float> &d, const LocalTensor<T> &s, uint32_t n);
template <>
__aicore__ inline void ToF32<float>(const LocalTensor<float> &d, const LocalTensor<float> &s, uint32_t n)
{
    Adds(d, s, 0.0f, n);
}
template <>
__aicore__ inline void ToF32<half>(const LocalTensor<float> &d, const LocalTensor<half> &s, uint32_t n)
{
    Cast(d, s, RoundMode::CAST_NONE, n);
}

template <typename T>
__aicore__ inline void FromF32(const LocalTensor<T> &d, const LocalTensor<float> &s, uint32_t n);
template <>
__aicore__ inline void FromF32<float>(const LocalTensor<float> &d, const LocalTensor<float> &s, uint32_t n)
{
    Adds(d, s, 0.0f, n);
}
template <>
__aicore__ inline void FromF32<half>(const LocalTensor<half> &d, const LocalTensor<float> &s, uint32_t n)
{
    Cast(d, s, RoundMode::CAST_ROUND, n);
}

// softmax(temperature * s) along the last axis; rows longer than one UB chunk
// are streamed three times (max, exp-sum, write).
template <typename T>
class TemperedRowSoftmax {
public:
    __aicore__ inline TemperedRowSoftmax() {}

    __aicore__ inline void Init(GM_ADDR scores, GM_ADDR probs, const TemperedRowSoftmaxTilingData &td)
    {
        td_ = td;
        uint32_t blk = GetBlockIdx();
        firstRow_ = blk * td.rowsPerCore + (blk < td.rowsExtra ? blk : td.rowsExtra);
        myRows_ = td.rowsPerCore + (blk < td.rowsExtra ? 1 : 0);
        sGm_.SetGlobalBuffer((__gm__ T *)scores);
        pGm_.SetGlobalBuffer((__gm__ T *)probs);
        pipe_.InitBuffer(inQ_, BUFFER_NUM, td.chunkLen * sizeof(T));
        pipe_.InitBuffer(outQ_, BUFFER_NUM, td.chunkLen * sizeof(T));
        pipe_.InitBuffer(work_, td.chunkLen * sizeof(float));
        pipe_.InitBuffer(scratch_, td.chunkLen * sizeof(float));
        pipe_.InitBuffer(resBuf_, 32 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < myRows_; ++r) {
            uint64_t rowBase = static_cast<uint64_t>(firstRow_ + r) * td_.rowLen;
            if (td_.resident) {
                ResidentRow(rowBase);
            } else {
                StreamedRow(rowBase);
            }
        }
    }

private:
    __aicore__ inline uint32_t ChunkSize(uint32_t c) const
    {
        uint32_t start = c * td_.chunkLen;
        return (td_.rowLen - start) < td_.chunkLen ? (td_.rowLen - start) : td_.chunkLen;
    }

    __aicore__ inline void Fetch(uint64_t off, uint32_t len)
    {
        LocalTensor<T> t = inQ_.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(t, sGm_[off], cp, pad);
        inQ_.EnQue(t);
    }

    __aicore__ inline void Flush(uint64_t off, uint32_t len)
    {
        LocalTensor<T> t = outQ_.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPad(pGm_[off], t, cp);
        outQ_.FreeTensor(t);
    }

    // dequeues a chunk into the fp32 work buffer, already multiplied by temperature
    __aicore__ inline LocalTensor<float> TakeScaled(uint32_t len)
    {
        LocalTensor<T> t = inQ_.DeQue<T>();
        LocalTensor<float> w = work_.Get<float>();
        ToF32<T>(w, t, len);
        inQ_.FreeTensor(t);
        Muls(w, w, td_.temperature, len);
        return w;
    }

    __aicore__ inline float ReadScalar(const LocalTensor<float> &t)
    {
        event_t ev = static_cast<event_t>(pipe_.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
        return t.GetValue(0);
    }

    __aicore__ inline void ResidentRow(uint64_t base)
    {
        uint32_t len = td_.rowLen;
        Fetch(base, len);
        LocalTensor<float> w = TakeScaled(len);
        LocalTensor<float> sc = scratch_.Get<float>();
        LocalTensor<float> res = resBuf_.Get<float>();
        ReduceMax(res, w, sc, len, false);
        float mx = ReadScalar(res);
        Adds(w, w, -mx, len);
        Exp(w, w, len);
        ReduceSum(res, w, sc, len);
        float total = ReadScalar(res);
        Muls(w, w, 1.0f / total, len);
        LocalTensor<T> o = outQ_.AllocTensor<T>();
        FromF32<T>(o, w, len);
        outQ_.EnQue(o);
        Flush(base, len);
    }

    __aicore__ inline void StreamedRow(uint64_t base)
    {
        LocalTensor<float> sc = scratch_.Get<float>();
        LocalTensor<float> res = resBuf_.Get<float>();
        float mx = -3.402823e38f;
        for (uint32_t c = 0; c < td_.chunkCount; ++c) {
            uint32_t len = ChunkSize(c);
            Fetch(base + static_cast<uint64_t>(c) * td_.chunkLen, len);
            LocalTensor<float> w = TakeScaled(len);
            ReduceMax(res, w, sc, len, false);
            float m = ReadScalar(res);
            mx = m > mx ? m : mx;
        }
        float total = 0.0f;
        for (uint32_t c = 0; c < td_.chunkCount; ++c) {
            uint32_t len = ChunkSize(c);
            Fetch(base + static_cast<uint64_t>(c) * td_.chunkLen, len);
            LocalTensor<float> w = TakeScaled(len);
            Adds(w, w, -mx, len);
            Exp(w, w, len);
            ReduceSum(res, w, sc, len);
            total += ReadScalar(res);
        }
        float inv = 1.0f / total;
        for (uint32_t c = 0; c < td_.chunkCount; ++c) {
            uint32_t len = ChunkSize(c);
            uint64_t off = base + static_cast<uint64_t>(c) * td_.chunkLen;
            Fetch(off, len);
            LocalTensor<float> w = TakeScaled(len);
            Adds(w, w, -mx, len);
            Exp(w, w, len);
            Muls(w, w, inv, len);
            LocalTensor<T> o = outQ_.AllocTensor<T>();
            FromF32<T>(o, w, len);
            outQ_.EnQue(o);
            Flush(off, len);
        }
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ_;
    TBuf<TPosition::VECCALC> work_, scratch_, resBuf_;
    GlobalTensor<T> sGm_, pGm_;
    TemperedRowSoftmaxTilingData td_;
    uint32_t firstRow_ = 0;
    uint32_t myRows_ = 0;
};

extern "C" __global__ __aicore__ void tempered_row_softmax_custom(GM_ADDR scores, GM_ADDR probs,
                                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        TemperedRowSoftmax<half> op;
        op.Init(scores, probs, td);
        op.Process();
    } else if (TILING_KEY_IS(0)) {
        TemperedRowSoftmax<float> op;
        op.Init(scores, probs, td);
        op.Process();
    }
}
"""

python_bind_src = """
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <cmath>

at::Tensor tempered_row_softmax_impl_npu(const at::Tensor &scores, double temperature)
{
    at::Tensor s = scores.contiguous();
    at::Tensor p = at::empty_like(s);
    EXEC_NPU_CMD(aclnnTemperedRowSoftmaxCustom, s, temperature, p);
    return p;
}

// softmax(Q K^T / sqrt(d)) V for (B, L, D) inputs. Query rows are processed in
// blocks so the score matrix stays bounded (blockRows x Lk) in device memory.
at::Tensor long_context_attention(const at::Tensor &q, const at::Tensor &k, const at::Tensor &v)
{
    TORCH_CHECK(q.dim() == 3 && k.dim() == 3 && v.dim() == 3, "expected (B, L, D) tensors");
    const int64_t lq = q.size(1);
    const double temperature = 1.0 / std::sqrt(static_cast<double>(q.size(2)));
    const int64_t blockRows = 2048;
    at::Tensor kt = k.transpose(1, 2);
    at::Tensor out = at::empty({q.size(0), lq, v.size(2)}, q.options());
    for (int64_t r0 = 0; r0 < lq; r0 += blockRows) {
        int64_t rows = std::min(blockRows, lq - r0);
        at::Tensor qb = q.narrow(1, r0, rows);
        at::Tensor scores = at::bmm(qb, kt);
        at::Tensor probs = tempered_row_softmax_impl_npu(scores, temperature);
        out.narrow(1, r0, rows).copy_(at::bmm(probs, v));
    }
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("tempered_row_softmax_custom", &tempered_row_softmax_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("tempered_row_softmax_custom", &tempered_row_softmax_impl_npu, "softmax(t * x, dim=-1)");
    m.def("long_context_attention", &long_context_attention, "scaled dot-product attention");
}
"""
