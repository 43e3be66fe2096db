project_json_src='''
[
    {
        "op": "RowPeakCenteredGeluCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "h", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RowPeakCenteredGeluTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);
  TILING_DATA_FIELD_DEF(uint32_t, cols);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);     // elements per streamed tile (32B multiple)
  TILING_DATA_FIELD_DEF(uint32_t, fullTiles);   // complete tiles per row
  TILING_DATA_FIELD_DEF(uint32_t, lastLen);     // leftover elements of a row (may be 0)
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, rowsTail);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(RowPeakCenteredGeluCustom, RowPeakCenteredGeluTilingData)
}
"""

host_operator_src="""
#include "row_peak_centered_gelu_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_BYTES = 16 * 1024;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    RowPeakCenteredGeluTilingData td;
    auto shape = context->GetInputShape(0)->GetOriginShape();
    uint32_t rows = shape.GetDim(0);
    uint32_t cols = shape.GetShapeSize() / rows;
    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t elem = dt == ge::DT_FLOAT16 ? 2 : 4;

    uint32_t tileLen = TILE_BYTES / elem;
    if (cols < tileLen) {
        tileLen = (cols + 15) / 16 * 16;
    }
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t used = rows < cores ? rows : cores;

    td.set_rows(rows);
    td.set_cols(cols);
    td.set_tileLen(tileLen);
    td.set_fullTiles(cols / tileLen);
    td.set_lastLen(cols % tileLen);
    td.set_rowsPerCore(rows / used);
    td.set_rowsTail(rows % used);

    context->SetBlockDim(used);
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 1 : 0);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
// max over dim 1 with keepdim -> [rows, 1]
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* in = context->GetInputShape(0);
    gert::Shape* out = context->GetOutputShape(0);
    out->SetDimNum(2);
    out->SetDim(0, in->GetDim(0));
    out->SetDim(1, 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class RowPeakCenteredGeluCustom : public OpDef {
public:
    explicit RowPeakCenteredGeluCustom(const char* name) : OpDef(name)
    {
        this->Input("h").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(RowPeakCenteredGeluCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr float INV_SQRT2 = 0.70710678118654752f;

template <typename T>
__aicore__ inline T LowestOf();
template <>
__aicore__ inline float LowestOf<float>() { return -3.402823466e+38f; }
template <>
__aicore__ inline half LowestOf<half>() { return (half)(-65504.0f); }

// Exact (erf based) GELU in float, in place.
__aicore__ inline void GeluErf(const LocalTensor<float>& x, const LocalTensor<float>& tmp, uint32_t n)
{
    Muls(tmp, x, INV_SQRT2, n);
    Erf(tmp, tmp, n);
    Adds(tmp, tmp, 1.0f, n);
    Mul(x, x, tmp, n);
    Muls(x, x, 0.5f, n);
}

// Streams each row once, keeps an element-wise running max over tiles, reduces once per row.
template <typename T>
class RowPeakCenteredGelu {
public:
    __aicore__ inline RowPeakCenteredGelu() {}
    __aicore__ inline void Init(GM_ADDR h, GM_ADDR y, uint32_t rows, uint32_t cols, uint32_t tileLen,
                                uint32_t fullTiles, uint32_t lastLen, uint32_t rowsPerCore, uint32_t rowsTail)
    {
        cols_ = cols;
        tileLen_ = tileLen;
        fullTiles_ = fullTiles;
        lastLen_ = lastLen;
        uint32_t bid = GetBlockIdx();
        rowCnt_ = rowsPerCore + (bid < rowsTail ? 1 : 0);
        row0_ = bid * rowsPerCore + (bid < rowsTail ? bid : rowsTail);
        hGm_.SetGlobalBuffer((__gm__ T*)h);
        yGm_.SetGlobalBuffer((__gm__ T*)y);

        pipe_.InitBuffer(inQ_, BUFFER_NUM, tileLen_ * sizeof(T));
        pipe_.InitBuffer(accBuf_, tileLen_ * sizeof(T));
        pipe_.InitBuffer(workBuf_, tileLen_ * sizeof(T));
        // one result per row of this core; 32B padded
        resLen_ = (rowCnt_ + 15) / 16 * 16;
        if (resLen_ == 0) resLen_ = 16;
        pipe_.InitBuffer(resBuf_, resLen_ * sizeof(float));
        pipe_.InitBuffer(tmpBuf_, resLen_ * sizeof(float));
        pipe_.InitBuffer(outQ_, 1, resLen_ * sizeof(T));
        pipe_.InitBuffer(redBuf_, 32 * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        if (rowCnt_ == 0) {
            return;
        }
        LocalTensor<float> res = resBuf_.Get<float>();
        for (uint32_t r = 0; r < rowCnt_; ++r) {
            float peak = RowMax((uint64_t)(row0_ + r) * cols_);
            res.SetValue(r, peak);
        }
        event_t ev = static_cast<event_t>(pipe_.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev);
        WaitFlag<HardEvent::S_V>(ev);
        Epilogue(res);
    }

private:
    __aicore__ inline void LoadTile(uint64_t off, uint32_t len)
    {
        LocalTensor<T> t = inQ_.AllocTensor<T>();
        if (len == tileLen_) {
            DataCopy(t, hGm_[off], len);
        } else {
            DataCopyExtParams cp{1, (uint32_t)(len * sizeof(T)), 0, 0, 0};
            DataCopyPadExtParams<T> pad{false, 0, 0, 0};
            DataCopyPad(t, hGm_[off], cp, pad);
        }
        inQ_.EnQue(t);
    }

    __aicore__ inline float RowMax(uint64_t base)
    {
        LocalTensor<T> acc = accBuf_.Get<T>();
        Duplicate(acc, LowestOf<T>(), tileLen_);
        for (uint32_t i = 0; i < fullTiles_; ++i) {
            LoadTile(base + (uint64_t)i * tileLen_, tileLen_);
            LocalTensor<T> t = inQ_.DeQue<T>();
            Max(acc, acc, t, tileLen_);
            inQ_.FreeTensor(t);
        }
        if (lastLen_ > 0) {
            LoadTile(base + (uint64_t)fullTiles_ * tileLen_, lastLen_);
            LocalTensor<T> t = inQ_.DeQue<T>();
            Max(acc, acc, t, lastLen_);     // only the valid prefix takes part
            inQ_.FreeTensor(t);
        }
        LocalTensor<T> red = redBuf_.Get<T>();
        ReduceMax<T>(red, acc, workBuf_.Get<T>(), tileLen_, false);
        event_t ev = static_cast<event_t>(pipe_.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
        return static_cast<float>(red.GetValue(0));
    }

    // The kept axis has length 1, so its mean is the value itself: gelu(v - mean(v)).
    __aicore__ inline void Epilogue(const LocalTensor<float>& res)
    {
        LocalTensor<float> mean = tmpBuf_.Get<float>();
        DataCopy(mean, res, resLen_);          // mean over a size-1 axis
        Sub(res, res, mean, rowCnt_);
        GeluErf(res, mean, rowCnt_);

        LocalTensor<T> o = outQ_.AllocTensor<T>();
        if constexpr (std::is_same<T, float>::value) {
            DataCopy(o, res, resLen_);
        } else {
            Cast(o, res, RoundMode::CAST_ROUND, resLen_);
        }
        outQ_.EnQue(o);
        o = outQ_.DeQue<T>();
        DataCopyExtParams cp{1, (uint32_t)(rowCnt_ * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm_[row0_], o, cp);
        outQ_.FreeTensor(o);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ_;
    TQue<QuePosition::VECOUT, 1> outQ_;
    TBuf<TPosition::VECCALC> accBuf_, workBuf_, resBuf_, tmpBuf_, redBuf_;
    GlobalTensor<T> hGm_, yGm_;
    uint32_t cols_, tileLen_, fullTiles_, lastLen_, rowCnt_, row0_, resLen_;
};

extern "C" __global__ __aicore__ void row_peak_centered_gelu_custom(GM_ADDR h, GM_ADDR y, GM_ADDR workspace,
                                                                    GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        RowPeakCenteredGelu<float> op;
        op.Init(h, y, td.rows, td.cols, td.tileLen, td.fullTiles, td.lastLen, td.rowsPerCore, td.rowsTail);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        RowPeakCenteredGelu<half> op;
        op.Init(h, y, td.rows, td.cols, td.tileLen, td.fullTiles, td.lastLen, td.rowsPerCore, td.rowsTail);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// Linear via addmm, then row max -> subtract mean over the kept axis -> gelu in the custom kernel.
at::Tensor row_peak_centered_gelu_impl_npu(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias)
{
    at::Tensor h = at::addmm(bias, x, weight.t()).contiguous();
    at::Tensor y = at::empty({h.size(0), 1}, h.options());
    EXEC_NPU_CMD(aclnnRowPeakCenteredGeluCustom, h, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("row_peak_centered_gelu_custom", &row_peak_centered_gelu_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("row_peak_centered_gelu_custom", &row_peak_centered_gelu_impl_npu,
          "linear -> max(dim=1, keepdim) -> minus mean -> gelu");
}
"""
