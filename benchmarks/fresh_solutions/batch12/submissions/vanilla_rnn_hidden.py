project_json_src='''
[
    {
        "op": "TanhRecurrentScanCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x_proj", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "h0", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "w_hh", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "output_desc": [
            {"name": "h_all", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TanhRecurrentScanTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, steps);       // seq_len
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, hidden);
  TILING_DATA_FIELD_DEF(uint32_t, hiddenPad);   // hidden rounded up to 64 lanes (one fp32 repeat)
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore); // hidden units owned by one core, multiple of 8
  TILING_DATA_FIELD_DEF(uint32_t, activeCores);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(TanhRecurrentScanCustom, TanhRecurrentScanTilingData)
}
"""

host_operator_src="""
#include "tanh_recurrent_scan_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t coreNum = plat.GetCoreNumAiv();

    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();   // [T, B, H]
    uint32_t steps = xs.GetDim(0);
    uint32_t batch = xs.GetDim(1);
    uint32_t hidden = xs.GetDim(2);
    uint32_t hiddenPad = (hidden + 63) / 64 * 64;

    // Every core keeps its rows of W_hh resident; the recurrence needs all cores in lock step.
    uint32_t units = (hidden + coreNum - 1) / coreNum;
    units = (units + 7) / 8 * 8;
    uint32_t cores = (hidden + units - 1) / units;

    // W slice + product scratch + staging, all fp32
    uint64_t need = (uint64_t)units * hiddenPad * 4 * 3 + (uint64_t)batch * hiddenPad * 4 * 3
                  + (uint64_t)batch * units * 4 * 8;
    if (need > ub - 8 * 1024 || units > 255) {
        return ge::GRAPH_FAILED;
    }

    TanhRecurrentScanTilingData td;
    td.set_steps(steps);
    td.set_batch(batch);
    td.set_hidden(hidden);
    td.set_hiddenPad(hiddenPad);
    td.set_unitsPerCore(units);
    td.set_activeCores(cores);

    context->SetBlockDim(cores);
    context->SetTilingKey(context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 1);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize();   // SyncAll bookkeeping lives in the system workspace
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
class TanhRecurrentScanCustom : public OpDef {
public:
    explicit TanhRecurrentScanCustom(const char* name) : OpDef(name)
    {
        this->Input("x_proj").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("h0").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("w_hh").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("h_all").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(TanhRecurrentScanCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t LANES = 64;   // fp32 elements per vector repeat

// Strided row load GM -> UB: `rows` rows of `len` elements, GM pitch `gmPitch`, UB pitch `ubPitch`
// (ubPitch is a multiple of 8 elements). Converted to fp32 when T is half.
template <typename T>
__aicore__ inline void LoadRowsF32(const LocalTensor<float>& dst, const LocalTensor<T>& stage,
                                   const GlobalTensor<T>& src, uint32_t rows, uint32_t len,
                                   uint32_t gmPitch, uint32_t ubPitch)
{
    if constexpr (IsSameType<T, float>::value) {
        DataCopyExtParams cp{static_cast<uint16_t>(rows), static_cast<uint32_t>(len * sizeof(float)),
                             static_cast<uint32_t>((gmPitch - len) * sizeof(float)),
                             static_cast<uint32_t>((ubPitch - (len + 7) / 8 * 8) / 8), 0};
        DataCopyPad(dst, src, cp, DataCopyPadExtParams<float>{true, 0, 0, 0.0f});
    } else {
        // half rows are staged with a 16-element pitch, then widened
        uint32_t stagePitch = (ubPitch + 15) / 16 * 16;
        DataCopyExtParams cp{static_cast<uint16_t>(rows), static_cast<uint32_t>(len * sizeof(half)),
                             static_cast<uint32_t>((gmPitch - len) * sizeof(half)),
                             static_cast<uint32_t>((stagePitch - (len + 15) / 16 * 16) / 16), 0};
        DataCopyPad(stage, src, cp, DataCopyPadExtParams<half>{true, 0, 0, half(0)});
        SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
        for (uint32_t r = 0; r < rows; ++r) {
            Cast(dst[r * ubPitch], stage[r * stagePitch], RoundMode::CAST_NONE, len);
        }
        return;
    }
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
}

// tanh(z) = 1 - 2 / (exp(2z) + 1); saturates cleanly for large |z|
__aicore__ inline void TanhF32(const LocalTensor<float>& v, const LocalTensor<float>& tmp, uint32_t n)
{
    Muls(tmp, v, 2.0f, n);
    Exp(tmp, tmp, n);
    Adds(tmp, tmp, 1.0f, n);
    Duplicate(v, -2.0f, n);
    Div(v, v, tmp, n);
    Adds(v, v, 1.0f, n);
}

template <typename T>
class TanhRecurrentScanKernel {
public:
    __aicore__ inline TanhRecurrentScanKernel() {}

    __aicore__ inline void Init(GM_ADDR xp, GM_ADDR h0, GM_ADDR w, GM_ADDR hAll, const TanhRecurrentScanTilingData& td)
    {
        steps = td.steps;
        B = td.batch;
        H = td.hidden;
        Hp = td.hiddenPad;
        J = td.unitsPerCore;
        j0 = GetBlockIdx() * J;
        myUnits = (j0 >= H) ? 0 : ((H - j0) < J ? (H - j0) : J);

        xpGm.SetGlobalBuffer((__gm__ T*)xp, (uint64_t)steps * B * H);
        h0Gm.SetGlobalBuffer((__gm__ T*)h0, (uint64_t)B * H);
        wGm.SetGlobalBuffer((__gm__ T*)w, (uint64_t)H * H);
        hAllGm.SetGlobalBuffer((__gm__ T*)hAll, (uint64_t)steps * B * H);

        pipe.InitBuffer(wBuf, J * Hp * sizeof(float));        // resident W_hh rows [J x Hp]
        pipe.InitBuffer(prodBuf, J * Hp * sizeof(float));     // W .* h_b before the row reduction
        pipe.InitBuffer(hBuf, B * Hp * sizeof(float));        // previous hidden state, zero padded
        pipe.InitBuffer(stageBuf, B * Hp * sizeof(float));    // half staging (also sized for W rows below)
        pipe.InitBuffer(xpQ, BUFFER_NUM, B * J * sizeof(float));
        pipe.InitBuffer(outQ, BUFFER_NUM, B * J * sizeof(float));
        pipe.InitBuffer(tmpBuf, B * J * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> wl = wBuf.Get<float>();
        LocalTensor<float> hl = hBuf.Get<float>();
        LocalTensor<T> stage = stageBuf.Get<T>();
        Duplicate(wl, 0.0f, J * Hp);
        Duplicate(hl, 0.0f, B * Hp);
        PipeBarrier<PIPE_ALL>();
        if (myUnits > 0) {
            for (uint32_t r = 0; r < myUnits; r += B) {
                uint32_t cnt = (myUnits - r) < B ? (myUnits - r) : B;
                LoadRowsF32<T>(wl[r * Hp], stage, wGm[(uint64_t)(j0 + r) * H], cnt, H, H, Hp);
                PipeBarrier<PIPE_ALL>();
            }
        }

        for (uint32_t t = 0; t < steps; ++t) {
            GlobalTensor<T> prev = (t == 0) ? h0Gm : hAllGm[(uint64_t)(t - 1) * B * H];
            LoadRowsF32<T>(hl, stage, prev, B, H, H, Hp);
            if (myUnits > 0) {
                LoadProjection(t);
                Step();
                Store(t);
            }
            // all slices of h_t must be in GM before anyone reads them at t+1
            SyncAll();
        }
    }

private:
    __aicore__ inline void LoadProjection(uint32_t t)
    {
        LocalTensor<float> xl = xpQ.AllocTensor<float>();
        LocalTensor<T> stage = stageBuf.Get<T>();
        LoadRowsF32<T>(xl, stage, xpGm[(uint64_t)t * B * H + j0], B, myUnits, H, J);
        xpQ.EnQue(xl);
    }

    __aicore__ inline void Step()
    {
        LocalTensor<float> wl = wBuf.Get<float>();
        LocalTensor<float> hl = hBuf.Get<float>();
        LocalTensor<float> prod = prodBuf.Get<float>();
        LocalTensor<float> xl = xpQ.DeQue<float>();
        LocalTensor<float> acc = outQ.AllocTensor<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        uint8_t rowRep = static_cast<uint8_t>(Hp / 8);
        uint32_t chunks = Hp / LANES;

        for (uint32_t b = 0; b < B; ++b) {
            // prod[j, :] = W[j, :] * h[b, :], h broadcast across the J rows via src1 repeat stride 0
            for (uint32_t c = 0; c < chunks; ++c) {
                Mul(prod[c * LANES], wl[c * LANES], hl[b * Hp + c * LANES], LANES, static_cast<uint8_t>(J),
                    {1, 1, 1, rowRep, rowRep, 0});
            }
            PipeBarrier<PIPE_V>();
            // fold the 64-lane chunks of every row into the first chunk
            for (uint32_t c = 1; c < chunks; ++c) {
                Add(prod, prod, prod[c * LANES], LANES, static_cast<uint8_t>(J),
                    {1, 1, 1, rowRep, rowRep, rowRep});
                PipeBarrier<PIPE_V>();
            }
            WholeReduceSum<float>(acc[b * J], prod, LANES, static_cast<int32_t>(J), 1, 1, rowRep);
            PipeBarrier<PIPE_V>();
        }
        Add(acc, acc, xl, B * J);
        TanhF32(acc, tmp, B * J);
        xpQ.FreeTensor(xl);
        outQ.EnQue(acc);
    }

    __aicore__ inline void Store(uint32_t t)
    {
        LocalTensor<float> acc = outQ.DeQue<float>();
        uint64_t dst = (uint64_t)t * B * H + j0;
        if constexpr (IsSameType<T, float>::value) {
            DataCopyExtParams cp{static_cast<uint16_t>(B), static_cast<uint32_t>(myUnits * sizeof(float)),
                                 static_cast<uint32_t>((J - (myUnits + 7) / 8 * 8) / 8),
                                 static_cast<uint32_t>((H - myUnits) * sizeof(float)), 0};
            DataCopyPad(hAllGm[dst], acc, cp);
        } else {
            LocalTensor<half> hh = stageBuf.Get<half>();
            uint32_t pitch = (J + 15) / 16 * 16;
            for (uint32_t b = 0; b < B; ++b) {
                Cast(hh[b * pitch], acc[b * J], RoundMode::CAST_ROUND, J);
            }
            SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
            WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
            DataCopyExtParams cp{static_cast<uint16_t>(B), static_cast<uint32_t>(myUnits * sizeof(half)),
                                 static_cast<uint32_t>((pitch - (myUnits + 15) / 16 * 16) / 16),
                                 static_cast<uint32_t>((H - myUnits) * sizeof(half)), 0};
            DataCopyPad(hAllGm[dst], hh, cp);
        }
        outQ.FreeTensor(acc);
    }

    TPipe pipe;
    TBuf<TPosition::VECCALC> wBuf, prodBuf, hBuf, stageBuf, tmpBuf;
    TQue<TPosition::VECIN, BUFFER_NUM> xpQ;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQ;
    GlobalTensor<T> xpGm, h0Gm, wGm, hAllGm;
    uint32_t steps = 0, B = 0, H = 0, Hp = 0, J = 0, j0 = 0, myUnits = 0;
};

extern "C" __global__ __aicore__ void tanh_recurrent_scan_custom(GM_ADDR x_proj, GM_ADDR h0, GM_ADDR w_hh,
                                                                 GM_ADDR h_all, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        TanhRecurrentScanKernel<float> op;
        op.Init(x_proj, h0, w_hh, h_all, td);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        TanhRecurrentScanKernel<half> op;
        op.Init(x_proj, h0, w_hh, h_all, td);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// h_t = tanh(x_proj[t] + h_{t-1} @ W_hh^T) for all t; returns [T, B, H]
at::Tensor tanh_recurrent_scan_impl_npu(const at::Tensor& x_proj, const at::Tensor& h0, const at::Tensor& w_hh)
{
    at::Tensor xp = x_proj.contiguous();
    at::Tensor h = h0.to(xp.scalar_type()).contiguous();
    at::Tensor w = w_hh.to(xp.scalar_type()).contiguous();
    at::Tensor hAll = at::empty_like(xp);
    EXEC_NPU_CMD(aclnnTanhRecurrentScanCustom, xp, h, w, hAll);
    return hAll;
}

// Elman RNN forward. cat(x_t, h) @ W_i2h^T splits into x_t @ W_x^T + h @ W_h^T: the input half
// is one large GEMM over all steps, only the hidden half is sequential (custom kernel).
at::Tensor elman_rnn_forward_impl_npu(const at::Tensor& x, const at::Tensor& h0,
                                      const at::Tensor& i2h_w, const at::Tensor& i2h_b,
                                      const at::Tensor& h2o_w, const at::Tensor& h2o_b)
{
    int64_t T = x.size(0), B = x.size(1), I = x.size(2);
    int64_t H = i2h_w.size(0);
    at::Tensor wx = i2h_w.narrow(1, 0, I);
    at::Tensor wh = i2h_w.narrow(1, I, H).contiguous();
    at::Tensor xp = at::addmm(i2h_b, x.reshape({T * B, I}), wx.t()).reshape({T, B, H});
    at::Tensor hAll = tanh_recurrent_scan_impl_npu(xp, h0.to(x.device()), wh);
    at::Tensor out = at::addmm(h2o_b, hAll.reshape({T * B, H}), h2o_w.t());
    return out.reshape({T, B, h2o_w.size(0)});
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("tanh_recurrent_scan_custom", &tanh_recurrent_scan_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("tanh_recurrent_scan_custom", &tanh_recurrent_scan_impl_npu, "tanh recurrence over precomputed projections");
    m.def("elman_rnn_forward", &elman_rnn_forward_impl_npu, "vanilla RNN: outputs for every step");
}
"""
