project_json_src='''
[
    {
        "op": "SlidingWindowMax2dCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            }
        ],
        "output_desc": [
            {
                "name": "y",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            }
        ],
        "attr": [
            {"name": "window", "param_type": "required", "type": "int"},
            {"name": "step", "param_type": "required", "type": "int"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SlidingWindowMax2dTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planes);
  TILING_DATA_FIELD_DEF(uint32_t, hin);
  TILING_DATA_FIELD_DEF(uint32_t, win);
  TILING_DATA_FIELD_DEF(uint32_t, winAligned);
  TILING_DATA_FIELD_DEF(uint32_t, hout);
  TILING_DATA_FIELD_DEF(uint32_t, wout);
  TILING_DATA_FIELD_DEF(uint32_t, woutAligned);
  TILING_DATA_FIELD_DEF(uint32_t, window);
  TILING_DATA_FIELD_DEF(uint32_t, step);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);
  TILING_DATA_FIELD_DEF(uint32_t, rowTiles);
  TILING_DATA_FIELD_DEF(uint32_t, bufElems);
  TILING_DATA_FIELD_DEF(uint32_t, unitsBase);
  TILING_DATA_FIELD_DEF(uint32_t, unitsExtra);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SlidingWindowMax2dCustom, SlidingWindowMax2dTilingData)
}
"""

host_operator_src="""
#include "sliding_window_max2d_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BUF_BYTES = 32 * 1024;   // one queue slot; 2 queues x 2 slots = 128 KiB

static inline uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    SlidingWindowMax2dTilingData td;
    const gert::Shape& s = context->GetInputShape(0)->GetOriginShape();
    uint32_t dims = s.GetDimNum();
    uint32_t hin = s.GetDim(dims - 2);
    uint32_t win = s.GetDim(dims - 1);
    uint32_t planes = static_cast<uint32_t>(s.GetShapeSize() / ((uint64_t)hin * win));
    const auto* attrs = context->GetAttrs();
    uint32_t k = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    uint32_t st = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(1));
    if (k == 0 || st == 0 || hin < k || win < k) {
        return ge::GRAPH_FAILED;
    }
    uint32_t hout = (hin - k) / st + 1;
    uint32_t wout = (win - k) / st + 1;

    uint32_t elem = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    uint32_t align = 32 / elem;
    uint32_t woutA = AlignUp(wout, align);
    uint32_t winA = AlignUp(win, align);

    // unit stride: several output rows per slot; otherwise one full input row per slot
    uint32_t rows = 1;
    if (st == 1) {
        rows = BUF_BYTES / (woutA * elem);
        rows = rows == 0 ? 1 : rows;
        rows = rows > hout ? hout : rows;
    }
    uint32_t bufElems = st == 1 ? rows * woutA : (winA > woutA ? winA : woutA);
    uint32_t rowTiles = (hout + rows - 1) / rows;
    uint32_t units = planes * rowTiles;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    cores = cores > units ? units : cores;
    cores = cores == 0 ? 1 : cores;

    td.set_planes(planes);
    td.set_hin(hin);
    td.set_win(win);
    td.set_winAligned(winA);
    td.set_hout(hout);
    td.set_wout(wout);
    td.set_woutAligned(woutA);
    td.set_window(k);
    td.set_step(st);
    td.set_rowsPerTile(rows);
    td.set_rowTiles(rowTiles);
    td.set_bufElems(bufElems);
    td.set_unitsBase(units / cores);
    td.set_unitsExtra(units % cores);

    context->SetBlockDim(cores);
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
    const gert::Shape* in = context->GetInputShape(0);
    gert::Shape* out = context->GetOutputShape(0);
    const auto* attrs = context->GetAttrs();
    int64_t k = *attrs->GetAttrPointer<int64_t>(0);
    int64_t st = *attrs->GetAttrPointer<int64_t>(1);
    size_t d = in->GetDimNum();
    *out = *in;
    out->SetDim(d - 2, (in->GetDim(d - 2) - k) / st + 1);
    out->SetDim(d - 1, (in->GetDim(d - 1) - k) / st + 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class SlidingWindowMax2dCustom : public OpDef {
public:
    explicit SlidingWindowMax2dCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("window").Int();
        this->Attr("step").Int();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(SlidingWindowMax2dCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

template <typename T> struct Lowest;
template <> struct Lowest<float> { __aicore__ static inline float Get() { return -3.402823466e+38f; } };
template <> struct Lowest<half> { __aicore__ static inline half Get() { return static_cast<half>(-65504.0f); } };

// Input is already padded with -inf on the host side, so every window is a valid pooling window.
template <typename T>
class SlidingWindowMax2d {
public:
    __aicore__ inline SlidingWindowMax2d() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const SlidingWindowMax2dTilingData& td)
    {
        td_ = td;
        uint32_t idx = GetBlockIdx();
        count_ = td.unitsBase + (idx < td.unitsExtra ? 1 : 0);
        begin_ = idx * td.unitsBase + (idx < td.unitsExtra ? idx : td.unitsExtra);
        xGm_.SetGlobalBuffer((__gm__ T*)x);
        yGm_.SetGlobalBuffer((__gm__ T*)y);
        pipe_.InitBuffer(inQ_, BUFFER_NUM, td.bufElems * sizeof(T));
        pipe_.InitBuffer(outQ_, BUFFER_NUM, td.bufElems * sizeof(T));
        if (td.step != 1) {
            pipe_.InitBuffer(colBuf_, td.winAligned * sizeof(T));   // vertical max of the k input rows
        }
    }

    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < count_; ++i) {
            uint32_t u = begin_ + i;
            uint32_t plane = u / td_.rowTiles;
            uint32_t oy0 = (u % td_.rowTiles) * td_.rowsPerTile;
            uint32_t rows = (td_.hout - oy0) < td_.rowsPerTile ? (td_.hout - oy0) : td_.rowsPerTile;
            if (td_.step == 1) {
                UnitStrideTile(plane, oy0, rows);
            } else {
                StridedRow(plane, oy0);
            }
        }
    }

private:
    __aicore__ inline uint64_t InOffset(uint32_t plane, uint32_t row, uint32_t col) const
    {
        return ((uint64_t)plane * td_.hin + row) * td_.win + col;
    }

    // k*k shifted copies of a rows x wout block, each reduced with one vector Max
    __aicore__ inline void UnitStrideTile(uint32_t plane, uint32_t oy0, uint32_t rows)
    {
        uint32_t span = rows * td_.woutAligned;
        LocalTensor<T> acc = outQ_.AllocTensor<T>();
        Duplicate(acc, Lowest<T>::Get(), span);
        DataCopyExtParams cp{static_cast<uint16_t>(rows), static_cast<uint32_t>(td_.wout * sizeof(T)),
                             static_cast<uint32_t>((td_.win - td_.wout) * sizeof(T)), 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        for (uint32_t ky = 0; ky < td_.window; ++ky) {
            for (uint32_t kx = 0; kx < td_.window; ++kx) {
                LocalTensor<T> w = inQ_.AllocTensor<T>();
                DataCopyPad(w, xGm_[InOffset(plane, oy0 + ky, kx)], cp, pad);
                inQ_.EnQue(w);
                LocalTensor<T> wv = inQ_.DeQue<T>();
                Max(acc, acc, wv, span);
                inQ_.FreeTensor(wv);
            }
        }
        outQ_.EnQue(acc);
        LocalTensor<T> res = outQ_.DeQue<T>();
        DataCopyExtParams oc{static_cast<uint16_t>(rows), static_cast<uint32_t>(td_.wout * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm_[((uint64_t)plane * td_.hout + oy0) * td_.wout], res, oc);
        outQ_.FreeTensor(res);
    }

    // step > 1: vertical max on full rows, horizontal strided max on the scalar unit
    __aicore__ inline void StridedRow(uint32_t plane, uint32_t oy)
    {
        LocalTensor<T> col = colBuf_.Get<T>();
        event_t sv = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);
        Duplicate(col, Lowest<T>::Get(), td_.winAligned);
        DataCopyExtParams cp{1, static_cast<uint32_t>(td_.win * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        for (uint32_t ky = 0; ky < td_.window; ++ky) {
            LocalTensor<T> r = inQ_.AllocTensor<T>();
            DataCopyPad(r, xGm_[InOffset(plane, oy * td_.step + ky, 0)], cp, pad);
            inQ_.EnQue(r);
            LocalTensor<T> rv = inQ_.DeQue<T>();
            Max(col, col, rv, td_.winAligned);
            inQ_.FreeTensor(rv);
        }
        event_t vs = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);

        LocalTensor<T> out = outQ_.AllocTensor<T>();
        for (uint32_t ox = 0; ox < td_.wout; ++ox) {
            uint32_t base = ox * td_.step;
            float best = static_cast<float>(col.GetValue(base));
            for (uint32_t kx = 1; kx < td_.window; ++kx) {
                float v = static_cast<float>(col.GetValue(base + kx));
                best = v > best ? v : best;
            }
            out.SetValue(ox, static_cast<T>(best));
        }
        event_t sm = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(sm);
        WaitFlag<HardEvent::S_MTE3>(sm);
        outQ_.EnQue(out);
        LocalTensor<T> res = outQ_.DeQue<T>();
        DataCopyExtParams oc{1, static_cast<uint32_t>(td_.wout * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm_[((uint64_t)plane * td_.hout + oy) * td_.wout], res, oc);
        outQ_.FreeTensor(res);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ_;
    TBuf<QuePosition::VECCALC> colBuf_;
    GlobalTensor<T> xGm_, yGm_;
    SlidingWindowMax2dTilingData td_;
    uint32_t count_ = 0, begin_ = 0;
};

extern "C" __global__ __aicore__ void sliding_window_max2d_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                                  GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    SlidingWindowMax2d<DTYPE_X> op;
    op.Init(x, y, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include <limits>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor sliding_window_max2d_impl_npu(const at::Tensor& x, int64_t kernel_size, int64_t stride, int64_t padding)
{
    TORCH_CHECK(x.dim() == 4, "expected NCHW input");
    TORCH_CHECK(padding * 2 <= kernel_size, "padding must be at most half the kernel size");
    at::Tensor xp = x;
    if (padding > 0) {
        xp = at::constant_pad_nd(x, {padding, padding, padding, padding},
                                 -std::numeric_limits<double>::infinity());
    }
    xp = xp.contiguous();
    const int64_t hout = (xp.size(2) - kernel_size) / stride + 1;
    const int64_t wout = (xp.size(3) - kernel_size) / stride + 1;
    at::Tensor y = at::empty({x.size(0), x.size(1), hout, wout}, x.options());
    EXEC_NPU_CMD(aclnnSlidingWindowMax2dCustom, xp, kernel_size, stride, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("sliding_window_max2d_custom", &sliding_window_max2d_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("sliding_window_max2d_custom", &sliding_window_max2d_impl_npu, "MaxPool2d (dilation 1, floor mode)");
}
"""
