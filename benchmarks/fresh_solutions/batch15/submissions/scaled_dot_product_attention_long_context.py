project_json_src='''
[
    {
        "op": "StreamedRowSoftmaxCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "scores", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "output_desc": [
            {"name": "probs", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "attr": [
            {"name": "scale", "param_type": "optional", "type": "float", "default_value": "1.0"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(StreamedRowSoftmaxTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);
  TILING_DATA_FIELD_DEF(uint32_t, cols);
  TILING_DATA_FIELD_DEF(uint32_t, colTile);       // elements per column chunk, multiple of 64
  TILING_DATA_FIELD_DEF(uint32_t, colChunks);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, rowsTail);
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(StreamedRowSoftmaxCustom, StreamedRowSoftmaxTilingData)
}
"""

host_operator_src="""
#include "streamed_row_softmax_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t MAX_COL_TILE = 4096;   // 16KB fp32 per chunk; in/out double-buffered + 2 fp32 scratch

class SoftmaxTilingHelper {
public:
    SoftmaxTilingHelper(uint64_t rows, uint64_t cols, uint32_t cores) : rows_(rows), cols_(cols), cores_(cores) {}

    void Fill(StreamedRowSoftmaxTilingData& td, float scale) const
    {
        uint32_t colTile = cols_ < MAX_COL_TILE ? static_cast<uint32_t>((cols_ + 63) / 64 * 64) : MAX_COL_TILE;
        uint32_t used = UsedCores();
        td.set_rows(static_cast<uint32_t>(rows_));
        td.set_cols(static_cast<uint32_t>(cols_));
        td.set_colTile(colTile);
        td.set_colChunks(static_cast<uint32_t>((cols_ + colTile - 1) / colTile));
        td.set_rowsPerCore(static_cast<uint32_t>(rows_ / used));
        td.set_rowsTail(static_cast<uint32_t>(rows_ % used));
        td.set_scale(scale);
    }

    uint32_t UsedCores() const
    {
        uint64_t u = rows_ < cores_ ? rows_ : cores_;
        return u == 0 ? 1 : static_cast<uint32_t>(u);
    }

private:
    uint64_t rows_, cols_;
    uint32_t cores_;
};
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    StreamedRowSoftmaxTilingData td;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape& s = context->GetInputShape(0)->GetStorageShape();
    uint64_t cols = static_cast<uint64_t>(s.GetDim(s.GetDimNum() - 1));
    uint64_t rows = static_cast<uint64_t>(s.GetShapeSize()) / cols;
    float scale = *context->GetAttrs()->GetAttrPointer<float>(0);

    SoftmaxTilingHelper helper(rows, cols, plat.GetCoreNumAiv());
    helper.Fill(td, scale);

    context->SetBlockDim(helper.UsedCores());
    context->SetTilingKey(context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 1);
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
class StreamedRowSoftmaxCustom : public OpDef {
public:
    explicit StreamedRowSoftmaxCustom(const char* name) : OpDef(name)
    {
        this->Input("scores").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("probs").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("scale").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(StreamedRowSoftmaxCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr float NEG_BIG = -3.0e38f;

template <HardEvent E>
__aicore__ inline void Barrier()
{
    event_t id = static_cast<event_t>(GetTPipePtr()->FetchEventID(E));
    SetFlag<E>(id);
    WaitFlag<E>(id);
}

// Scalar exp through a one-block vector op (the scalar unit has no exp).
__aicore__ inline float ScalarExp(const LocalTensor<float>& cell, float v)
{
    cell.SetValue(0, v);
    Barrier<HardEvent::S_V>();
    Exp(cell, cell, 8);
    Barrier<HardEvent::V_S>();
    return cell.GetValue(0);
}

// Row softmax of (scale * x) for rows too long to keep in UB: one streaming pass keeps the
// running max / rescaled sum (online softmax), a second pass writes exp(scale*x - max) / sum.
template <typename T>
class StreamedRowSoftmax {
public:
    __aicore__ inline StreamedRowSoftmax() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const StreamedRowSoftmaxTilingData& t)
    {
        cols = t.cols;
        colTile = t.colTile;
        colChunks = t.colChunks;
        scale = t.scale;
        uint32_t idx = GetBlockIdx();
        rowCnt = t.rowsPerCore + (idx < t.rowsTail ? 1 : 0);
        rowBeg = idx * t.rowsPerCore + (idx < t.rowsTail ? idx : t.rowsTail);

        uint64_t total = static_cast<uint64_t>(t.rows) * cols;
        xGm.SetGlobalBuffer((__gm__ T*)x, total);
        yGm.SetGlobalBuffer((__gm__ T*)y, total);

        pipe.InitBuffer(inQ, BUFFER_NUM, colTile * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, colTile * sizeof(T));
        pipe.InitBuffer(valBuf, colTile * sizeof(float));
        pipe.InitBuffer(workBuf, colTile * sizeof(float));
        pipe.InitBuffer(cellBuf, 64 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < rowCnt; ++r) {
            uint64_t rowOff = static_cast<uint64_t>(rowBeg + r) * cols;
            float rowMax = NEG_BIG;
            float rowSum = 0.0f;
            for (uint32_t c = 0; c < colChunks; ++c) {
                uint32_t len = ChunkLen(c);
                Load(rowOff + static_cast<uint64_t>(c) * colTile, len);
                Accumulate(len, rowMax, rowSum);
            }
            float invSum = 1.0f / rowSum;
            for (uint32_t c = 0; c < colChunks; ++c) {
                uint32_t len = ChunkLen(c);
                uint64_t off = rowOff + static_cast<uint64_t>(c) * colTile;
                Load(off, len);
                Normalise(len, rowMax, invSum);
                Store(off, len);
            }
        }
    }

private:
    __aicore__ inline uint32_t ChunkLen(uint32_t c) const
    {
        uint32_t rest = cols - c * colTile;
        return rest < colTile ? rest : colTile;
    }

    __aicore__ inline void Load(uint64_t off, uint32_t len)
    {
        LocalTensor<T> t = inQ.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, static_cast<T>(0)};
        DataCopyPad(t, xGm[off], cp, pad);
        inQ.EnQue(t);
    }

    // valBuf <- scale * chunk, as fp32
    __aicore__ inline LocalTensor<float> Scaled(uint32_t len)
    {
        LocalTensor<T> t = inQ.DeQue<T>();
        LocalTensor<float> v = valBuf.Get<float>();
        if constexpr (IsSameType<T, float>::value) {
            Muls(v, t, scale, len);
        } else {
            Cast(v, t, RoundMode::CAST_NONE, len);
            Muls(v, v, scale, len);
        }
        inQ.FreeTensor(t);
        return v;
    }

    __aicore__ inline void Accumulate(uint32_t len, float& rowMax, float& rowSum)
    {
        LocalTensor<float> v = Scaled(len);
        LocalTensor<float> w = workBuf.Get<float>();
        LocalTensor<float> cell = cellBuf.Get<float>();

        ReduceMax(cell, v, w, len, false);
        Barrier<HardEvent::V_S>();
        float chunkMax = cell.GetValue(0);
        if (chunkMax > rowMax) {
            if (rowSum != 0.0f) {
                rowSum *= ScalarExp(cell, rowMax - chunkMax);
            }
            rowMax = chunkMax;
        }
        Barrier<HardEvent::S_V>();
        Adds(v, v, -rowMax, len);
        Exp(v, v, len);
        ReduceSum(cell, v, w, len);
        Barrier<HardEvent::V_S>();
        rowSum += cell.GetValue(0);
        Barrier<HardEvent::S_V>();
    }

    __aicore__ inline void Normalise(uint32_t len, float rowMax, float invSum)
    {
        LocalTensor<float> v = Scaled(len);
        Adds(v, v, -rowMax, len);
        Exp(v, v, len);
        LocalTensor<T> o = outQ.AllocTensor<T>();
        if constexpr (IsSameType<T, float>::value) {
            Muls(o, v, invSum, len);
        } else {
            Muls(v, v, invSum, len);
            Cast(o, v, RoundMode::CAST_ROUND, len);
        }
        outQ.EnQue(o);
    }

    __aicore__ inline void Store(uint64_t off, uint32_t len)
    {
        LocalTensor<T> o = outQ.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[off], o, cp);
        outQ.FreeTensor(o);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> valBuf, workBuf, cellBuf;
    GlobalTensor<T> xGm, yGm;
    uint32_t cols = 0, colTile = 0, colChunks = 0, rowCnt = 0, rowBeg = 0;
    float scale = 1.0f;
};

extern "C" __global__ __aicore__ void streamed_row_softmax_custom(GM_ADDR scores, GM_ADDR probs,
                                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        StreamedRowSoftmax<float> op;
        op.Init(scores, probs, td);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        StreamedRowSoftmax<half> op;
        op.Init(scores, probs, td);
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

at::Tensor streamed_row_softmax_impl_npu(const at::Tensor& scores, double scale)
{
    at::Tensor s = scores.contiguous();
    at::Tensor result = at::empty_like(s);
    EXEC_NPU_CMD(aclnnStreamedRowSoftmaxCustom, s, scale, result);
    return result;
}

// softmax(Q K^T / sqrt(d)) V, processed in blocks of query rows so the score matrix for a
// 16k-token context never has to exist in full; the GEMMs use the framework cube kernels.
at::Tensor blocked_attention_npu(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v, int64_t blockRows)
{
    TORCH_CHECK(q.dim() >= 2 && k.dim() == q.dim() && v.dim() == q.dim(), "q/k/v rank mismatch");
    int64_t lq = q.size(-2);
    double scale = 1.0 / std::sqrt(static_cast<double>(q.size(-1)));
    at::Tensor kt = k.transpose(-2, -1);
    std::vector<int64_t> outSize = q.sizes().vec();
    outSize.back() = v.size(-1);
    at::Tensor out = at::empty(outSize, q.options());
    int64_t step = blockRows > 0 ? blockRows : 1024;
    for (int64_t r0 = 0; r0 < lq; r0 += step) {
        int64_t n = std::min(step, lq - r0);
        at::Tensor scores = at::matmul(q.narrow(-2, r0, n), kt);
        at::Tensor p = streamed_row_softmax_impl_npu(scores, scale);
        out.narrow(-2, r0, n).copy_(at::matmul(p, v));
    }
    return out;
}

at::Tensor blocked_attention_default_npu(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v)
{
    return blocked_attention_npu(q, k, v, 1024);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("streamed_row_softmax_custom", &streamed_row_softmax_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("streamed_row_softmax_custom", &streamed_row_softmax_impl_npu, "softmax(scale * x, dim=-1)");
    m.def("blocked_attention", &blocked_attention_default_npu, "scaled dot-product attention, row-blocked");
    m.def("blocked_attention_rows", &blocked_attention_npu, "scaled dot-product attention with block size");
}
"""
