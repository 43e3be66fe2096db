project_json_src='''
[
    {
        "op": "ClampedRowLogSumExpMishCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "logits",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            }
        ],
        "output_desc": [
            {
                "name": "out",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            }
        ],
        "attr": [
            {"name": "gain", "param_type": "optional", "type": "float", "default_value": "1.0"},
            {"name": "lower", "param_type": "optional", "type": "float", "default_value": "-10.0"},
            {"name": "upper", "param_type": "optional", "type": "float", "default_value": "10.0"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ClampedRowLogSumExpMishTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);
  TILING_DATA_FIELD_DEF(uint32_t, cols);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tileCols);
  TILING_DATA_FIELD_DEF(uint32_t, tileCount);
  TILING_DATA_FIELD_DEF(uint32_t, lastTileCols);
  TILING_DATA_FIELD_DEF(float, gain);
  TILING_DATA_FIELD_DEF(float, lower);
  TILING_DATA_FIELD_DEF(float, upper);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ClampedRowLogSumExpMishCustom, ClampedRowLogSumExpMishTilingData)
}
"""

host_operator_src="""
#include "clamped_row_log_sum_exp_mish_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t MAX_TILE_COLS = 4096;   // float elements per column tile (16 KB)
constexpr uint32_t ALIGN_ELEMS = 16;       // 32 B for half, 2 blocks for float

struct RowSplit {
    uint32_t rowsPerCore;
    uint32_t cores;
};

RowSplit SplitRows(uint32_t rows, uint32_t coreNum)
{
    RowSplit s;
    s.rowsPerCore = (rows + coreNum - 1) / coreNum;
    if (s.rowsPerCore == 0) {
        s.rowsPerCore = 1;
    }
    s.cores = (rows + s.rowsPerCore - 1) / s.rowsPerCore;
    return s;
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ClampedRowLogSumExpMishTilingData tiling;
    const gert::Shape& shape = context->GetInputShape(0)->GetOriginShape();
    size_t dims = shape.GetDimNum();
    if (dims < 1) {
        return ge::GRAPH_FAILED;
    }
    uint32_t cols = static_cast<uint32_t>(shape.GetDim(dims - 1));
    uint32_t rows = static_cast<uint32_t>(shape.GetShapeSize() / cols);

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    RowSplit split = SplitRows(rows, coreNum);

    // column tiles are kept aligned so every tile but the last is a whole number of 32 B blocks
    uint32_t tileCols = cols < MAX_TILE_COLS ? ((cols + ALIGN_ELEMS - 1) / ALIGN_ELEMS) * ALIGN_ELEMS : MAX_TILE_COLS;
    uint32_t tileCount = (cols + tileCols - 1) / tileCols;
    uint32_t lastTileCols = cols - (tileCount - 1) * tileCols;

    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    float gain = *attrs->GetAttrPointer<float>(0);
    float lower = *attrs->GetAttrPointer<float>(1);
    float upper = *attrs->GetAttrPointer<float>(2);

    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_rowsPerCore(split.rowsPerCore);
    tiling.set_tileCols(tileCols);
    tiling.set_tileCount(tileCount);
    tiling.set_lastTileCols(lastTileCols);
    tiling.set_gain(gain);
    tiling.set_lower(lower);
    tiling.set_upper(upper);

    auto dtype = context->GetInputDesc(0)->GetDataType();
    context->SetTilingKey(dtype == ge::DT_FLOAT16 ? 1 : 0);
    context->SetBlockDim(split.cores);
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
    const gert::Shape* in = context->GetInputShape(0);
    gert::Shape* out = context->GetOutputShape(0);
    *out = *in;
    out->SetDim(in->GetDimNum() - 1, 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ClampedRowLogSumExpMishCustom : public OpDef {
public:
    explicit ClampedRowLogSumExpMishCustom(const char* name) : OpDef(name)
    {
        this->Input("logits")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("gain").AttrType(OPTIONAL).Float(1.0);
        this->Attr("lower").AttrType(OPTIONAL).Float(-10.0);
        this->Attr("upper").AttrType(OPTIONAL).Float(10.0);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ClampedRowLogSumExpMishCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t SMALL_LEN = 8;   // one 32 B block of floats for the per-row scalar epilogue

// Per-row scalar epilogue done on an 8-wide vector: lse = m + ln(s); y = lse * lse * tanh(softplus(lse)).
// tanh(softplus(v)) = ((1+e^v)^2 - 1) / ((1+e^v)^2 + 1)
struct MishEpilogue {
    __aicore__ static inline void Run(const LocalTensor<float>& v, const LocalTensor<float>& t)
    {
        Exp(t, v, SMALL_LEN);
        Adds(t, t, 1.0f, SMALL_LEN);
        Mul(t, t, t, SMALL_LEN);                 // (1+e^v)^2
        Adds(v[SMALL_LEN], t, -1.0f, SMALL_LEN); // numerator
        Adds(t, t, 1.0f, SMALL_LEN);             // denominator
        Div(t, v[SMALL_LEN], t, SMALL_LEN);      // tanh(softplus(v))
        Mul(t, t, v, SMALL_LEN);                 // mish(v)
        Mul(v, t, v, SMALL_LEN);                 // v * mish(v)
    }
};

template <typename T>
class ClampedRowLogSumExpMish {
public:
    __aicore__ inline ClampedRowLogSumExpMish() {}
    __aicore__ inline void Init(GM_ADDR logits, GM_ADDR out, const ClampedRowLogSumExpMishTilingData& td)
    {
        cols = td.cols;
        tileCols = td.tileCols;
        tileCount = td.tileCount;
        lastTileCols = td.lastTileCols;
        gain = td.gain;
        lower = td.lower;
        upper = td.upper;

        uint32_t first = GetBlockIdx() * td.rowsPerCore;
        rowBegin = first;
        rowEnd = first + td.rowsPerCore;
        if (rowEnd > td.rows) {
            rowEnd = td.rows;
        }
        inGm.SetGlobalBuffer((__gm__ T*)logits);
        outGm.SetGlobalBuffer((__gm__ T*)out);

        pipe.InitBuffer(inQue, BUFFER_NUM, tileCols * sizeof(T));
        pipe.InitBuffer(workBuf, tileCols * sizeof(float));   // float copy of the current tile
        pipe.InitBuffer(reduceBuf, tileCols * sizeof(float)); // ReduceMax/ReduceSum scratch
        pipe.InitBuffer(scalarBuf, 4 * SMALL_LEN * sizeof(float));
        // results of this core, padded to whole blocks
        uint32_t resLen = ((td.rowsPerCore + 15) / 16) * 16;
        pipe.InitBuffer(resultBuf, resLen * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        if (rowBegin >= rowEnd) {
            return;
        }
        LocalTensor<T> res = resultBuf.Get<T>();
        for (uint32_t r = rowBegin; r < rowEnd; ++r) {
            float rowMax = ScanRow(r, true, 0.0f);
            float rowSum = ScanRow(r, false, rowMax);
            float y = Finish(rowMax, rowSum);
            res.SetValue(r - rowBegin, static_cast<T>(y));
        }
        event_t sToMte3 = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(sToMte3);
        WaitFlag<HardEvent::S_MTE3>(sToMte3);
        DataCopyExtParams cp{1, static_cast<uint32_t>((rowEnd - rowBegin) * sizeof(T)), 0, 0, 0};
        DataCopyPad(outGm[rowBegin], res, cp);
    }

private:
    // pass == max: returns the row max of the clamped values; else returns sum(exp(v - shift))
    __aicore__ inline float ScanRow(uint32_t row, bool isMax, float shift)
    {
        float acc = isMax ? lower : 0.0f;
        uint64_t base = static_cast<uint64_t>(row) * cols;
        for (uint32_t t = 0; t < tileCount; ++t) {
            uint32_t len = (t + 1 == tileCount) ? lastTileCols : tileCols;
            LoadTile(base + static_cast<uint64_t>(t) * tileCols, len);
            float part = ReduceTile(len, isMax, shift);
            if (isMax) {
                acc = part > acc ? part : acc;
            } else {
                acc += part;
            }
        }
        return acc;
    }

    __aicore__ inline void LoadTile(uint64_t offset, uint32_t len)
    {
        LocalTensor<T> x = inQue.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, static_cast<T>(0)};
        DataCopyPad(x, inGm[offset], cp, pad);
        inQue.EnQue(x);
    }

    __aicore__ inline float ReduceTile(uint32_t len, bool isMax, float shift)
    {
        LocalTensor<T> x = inQue.DeQue<T>();
        LocalTensor<float> w = workBuf.Get<float>();
        LocalTensor<float> scratch = reduceBuf.Get<float>();
        LocalTensor<float> s = scalarBuf.Get<float>();
        if constexpr (std::is_same<T, float>::value) {
            Muls(w, x, gain, len);
        } else {
            Cast(w, x, RoundMode::CAST_NONE, len);
            Muls(w, w, gain, len);
        }
        inQue.FreeTensor(x);
        Maxs(w, w, lower, len);
        Mins(w, w, upper, len);
        if (isMax) {
            ReduceMax<float>(s, w, scratch, len, false);
        } else {
            Adds(w, w, -shift, len);
            Exp(w, w, len);
            ReduceSum<float>(s, w, scratch, len);
        }
        event_t vToS = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vToS);
        WaitFlag<HardEvent::V_S>(vToS);
        return s.GetValue(0);
    }

    __aicore__ inline float Finish(float rowMax, float rowSum)
    {
        LocalTensor<float> s = scalarBuf.Get<float>();
        LocalTensor<float> v = s[2 * SMALL_LEN];
        LocalTensor<float> t = s;
        Duplicate(v, rowSum, SMALL_LEN);
        Ln(v, v, SMALL_LEN);
        Adds(v, v, rowMax, SMALL_LEN);
        MishEpilogue::Run(v, t);
        event_t vToS = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vToS);
        WaitFlag<HardEvent::V_S>(vToS);
        return v.GetValue(0);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQue;
    TBuf<TPosition::VECCALC> workBuf, reduceBuf, scalarBuf, resultBuf;
    GlobalTensor<T> inGm, outGm;
    uint32_t cols, tileCols, tileCount, lastTileCols;
    uint32_t rowBegin, rowEnd;
    float gain, lower, upper;
};

extern "C" __global__ __aicore__ void clamped_row_log_sum_exp_mish_custom(GM_ADDR logits, GM_ADDR out,
                                                                          GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        ClampedRowLogSumExpMish<float> op;
        op.Init(logits, out, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        ClampedRowLogSumExpMish<half> op;
        op.Init(logits, out, td);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// linear -> (x * scale) * 2 -> clamp -> logsumexp(dim=1) -> v * mish(v)
// The GEMM goes to the vendor matmul; the row epilogue is the custom kernel.
at::Tensor clamped_row_lse_mish_impl_npu(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias,
                                         double scale, double clampMin, double clampMax)
{
    at::Tensor logits = at::linear(x, weight, bias).contiguous();
    auto outSizes = logits.sizes().vec();
    outSizes.back() = 1;
    at::Tensor out = at::empty(outSizes, logits.options());
    double gain = scale * 2.0;  // x * s followed by x + x
    EXEC_NPU_CMD(aclnnClampedRowLogSumExpMishCustom, logits, gain, clampMin, clampMax, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("clamped_row_lse_mish", &clamped_row_lse_mish_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("clamped_row_lse_mish", &clamped_row_lse_mish_impl_npu, "linear + scale + clamp + logsumexp + x*mish(x)");
}
"""
