project_json_src='''
[
    {
        "op": "PooledPeakMeanChannelSumCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            },
            {
                "name": "bias",
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
            {"name": "divisor", "param_type": "optional", "type": "float", "default_value": "2.0"},
            {"name": "pool_d", "param_type": "optional", "type": "int", "default_value": "2"},
            {"name": "pool_h", "param_type": "optional", "type": "int", "default_value": "2"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(PooledPeakMeanChannelSumTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, depth);
  TILING_DATA_FIELD_DEF(uint32_t, height);
  TILING_DATA_FIELD_DEF(uint32_t, width);
  TILING_DATA_FIELD_DEF(uint32_t, pitch);        // UB row pitch, W rounded up to 32 bytes of T
  TILING_DATA_FIELD_DEF(uint32_t, kd);
  TILING_DATA_FIELD_DEF(uint32_t, kh);
  TILING_DATA_FIELD_DEF(uint32_t, pd);           // pooled extents (floor mode)
  TILING_DATA_FIELD_DEF(uint32_t, ph);
  TILING_DATA_FIELD_DEF(uint32_t, pw);
  TILING_DATA_FIELD_DEF(uint32_t, phChunk);      // pooled rows per UB step
  TILING_DATA_FIELD_DEF(uint32_t, batchPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, extraBatch);
  TILING_DATA_FIELD_DEF(float, invDivisor);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(PooledPeakMeanChannelSumCustom, PooledPeakMeanChannelSumTilingData)
}
"""

host_operator_src="""
#include "pooled_peak_mean_channel_sum_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t DB = 2;
constexpr uint32_t REP_ELEMS = 64;     // fp32 elements per 256B repeat

// UB bytes per pooled row in one step
uint64_t BytesPerPooledRow(uint32_t kd, uint32_t kh, uint32_t pitch, uint32_t typeSize)
{
    uint64_t slabRow = (uint64_t)kd * kh * pitch;
    return slabRow * (DB * typeSize + sizeof(float))      // raw queue + fp32 slab
         + (uint64_t)pitch * sizeof(float)                // depth/row max
         + (uint64_t)pitch / 2 * sizeof(float) * 5;       // even, odd, acc, column mask, reduce tmp
}
} // namespace

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    if (xs.GetDimNum() != 5) {
        return ge::GRAPH_FAILED;
    }
    auto attrs = context->GetAttrs();
    const float *divPtr = attrs->GetAttrPointer<float>(0);
    const int64_t *kdPtr = attrs->GetAttrPointer<int64_t>(1);
    const int64_t *khPtr = attrs->GetAttrPointer<int64_t>(2);
    float divisor = divPtr ? *divPtr : 2.0f;
    uint32_t kd = kdPtr ? static_cast<uint32_t>(*kdPtr) : 2;
    uint32_t kh = khPtr ? static_cast<uint32_t>(*khPtr) : 2;
    if (divisor == 0.0f || kd == 0 || kh == 0) {
        return ge::GRAPH_FAILED;
    }

    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t typeSize = dt == ge::DT_FLOAT16 ? 2 : 4;
    uint32_t n = xs.GetDim(0), c = xs.GetDim(1), d = xs.GetDim(2), h = xs.GetDim(3), w = xs.GetDim(4);
    uint32_t alignElems = 32 / typeSize;
    uint32_t pitch = (w + alignElems - 1) / alignElems * alignElems;
    uint32_t pd = d / kd, ph = h / kh, pw = w / 2;   // width window is fixed at 2 (even/odd gather)
    if (pd == 0 || ph == 0 || pw == 0) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint64_t avail = ub - 16 * 1024;
    uint64_t chunk = avail / BytesPerPooledRow(kd, kh, pitch, typeSize);
    if (chunk == 0) {
        return ge::GRAPH_FAILED;
    }
    if (chunk > ph) {
        chunk = ph;
    }
    if (chunk * kh > 4095) {
        chunk = 4095 / kh;
    }
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t used = n < cores ? n : cores;
    used = used == 0 ? 1 : used;

    PooledPeakMeanChannelSumTilingData td;
    td.set_batch(n);
    td.set_channels(c);
    td.set_depth(d);
    td.set_height(h);
    td.set_width(w);
    td.set_pitch(pitch);
    td.set_kd(kd);
    td.set_kh(kh);
    td.set_pd(pd);
    td.set_ph(ph);
    td.set_pw(pw);
    td.set_phChunk(static_cast<uint32_t>(chunk));
    td.set_batchPerCore(n / used);
    td.set_extraBatch(n % used);
    td.set_invDivisor(1.0f / divisor);

    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 1 : 0);
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
    const gert::Shape *xs = context->GetInputShape(0);
    gert::Shape *ys = context->GetOutputShape(0);
    ys->SetDimNum(4);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, 1);
    ys->SetDim(2, 1);
    ys->SetDim(3, 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class PooledPeakMeanChannelSumCustom : public OpDef {
public:
    explicit PooledPeakMeanChannelSumCustom(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("bias")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("divisor").AttrType(OPTIONAL).Float(2.0f);
        this->Attr("pool_d").AttrType(OPTIONAL).Int(2);
        this->Attr("pool_h").AttrType(OPTIONAL).Int(2);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(PooledPeakMeanChannelSumCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t REP_ELEMS = 64;
constexpr uint8_t EVEN_PATTERN = 1;    // 0101...: elements 0, 2, 4, ...
constexpr uint8_t ODD_PATTERN = 2;     // 1010...: elements 1, 3, 5, ...

__aicore__ inline uint32_t RoundRep(uint32_t n) { return (n + REP_ELEMS - 1) / REP_ELEMS * REP_ELEMS; }

// Max over a (kd x kh x 2) window for a block of pooled rows, result summed into acc.
class WindowPeakReducer {
public:
    __aicore__ inline void Init(TPipe *pipe, uint32_t chunk, uint32_t pitch, uint32_t pw)
    {
        half_ = pitch / 2;
        uint32_t rowsLen = RoundRep(chunk * pitch);
        uint32_t pairLen = RoundRep(chunk * half_);
        pipe->InitBuffer(rowBuf, rowsLen * sizeof(float));
        pipe->InitBuffer(evenBuf, pairLen * sizeof(float));
        pipe->InitBuffer(oddBuf, pairLen * sizeof(float));
        pipe->InitBuffer(accBuf, pairLen * sizeof(float));
        pipe->InitBuffer(maskBuf, pairLen * sizeof(float));
        pipe->InitBuffer(redBuf, pairLen * sizeof(float));
        // 1.0 on the pw real pooled columns of each row, 0.0 on pad columns
        LocalTensor<float> m = maskBuf.Get<float>();
        Duplicate(m, 0.0f, pairLen);
        PipeBarrier<PIPE_V>();
        for (uint32_t r = 0; r < chunk; ++r) {
            Duplicate(m[r * half_], 1.0f, pw);
        }
        PipeBarrier<PIPE_V>();
    }

    __aicore__ inline void ResetAcc()
    {
        Duplicate(accBuf.Get<float>(), 0.0f, accBuf.GetSize() / sizeof(float));
        PipeBarrier<PIPE_V>();
    }

    // slab: kd depth slices of (rows*kh) x pitch fp32, already scaled
    __aicore__ inline void Reduce(const LocalTensor<float> &slab, uint32_t rows, uint32_t kd, uint32_t kh,
                                  uint32_t pitch)
    {
        uint32_t slice = rows * kh * pitch;
        for (uint32_t i = 1; i < kd; ++i) {
            Max(slab, slab, slab[i * slice], slice);
            PipeBarrier<PIPE_V>();
        }
        LocalTensor<float> rm = rowBuf.Get<float>();
        for (uint32_t r = 0; r < rows; ++r) {
            LocalTensor<float> dst = rm[r * pitch];
            uint32_t base = r * kh * pitch;
            if (kh == 1) {
                DataCopy(dst, slab[base], pitch);
            } else {
                Max(dst, slab[base], slab[base + pitch], pitch);
            }
            PipeBarrier<PIPE_V>();
            for (uint32_t j = 2; j < kh; ++j) {
                Max(dst, dst, slab[base + j * pitch], pitch);
                PipeBarrier<PIPE_V>();
            }
        }
        // pitch is even, so even/odd lanes pair up inside each row
        uint32_t len = rows * pitch;
        uint64_t cnt = 0;
        GatherMaskParams gp{1, static_cast<uint16_t>(RoundRep(len) / REP_ELEMS), 8, 0};
        LocalTensor<float> ev = evenBuf.Get<float>();
        LocalTensor<float> od = oddBuf.Get<float>();
        GatherMask(ev, rm, EVEN_PATTERN, false, 0, gp, cnt);
        GatherMask(od, rm, ODD_PATTERN, false, 0, gp, cnt);
        PipeBarrier<PIPE_V>();
        uint32_t pairs = rows * half_;
        Max(ev, ev, od, pairs);
        PipeBarrier<PIPE_V>();
        Mul(ev, ev, maskBuf.Get<float>(), pairs);
        PipeBarrier<PIPE_V>();
        LocalTensor<float> acc = accBuf.Get<float>();
        Add(acc, acc, ev, pairs);
        PipeBarrier<PIPE_V>();
    }

    __aicore__ inline float Total()
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        uint32_t n = accBuf.GetSize() / sizeof(float);
        ReduceSum(acc, acc, red, n);
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
        return acc.GetValue(0);
    }

private:
    TBuf<TPosition::VECCALC> rowBuf, evenBuf, oddBuf, accBuf, maskBuf, redBuf;
    uint32_t half_ = 0;
};

template <typename T>
class PooledPeakMeanChannelSum {
public:
    __aicore__ inline PooledPeakMeanChannelSum() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR bias, GM_ADDR y, const PooledPeakMeanChannelSumTilingData &td)
    {
        t = td;
        uint32_t idx = GetBlockIdx();
        nCount = td.batchPerCore + (idx < td.extraBatch ? 1 : 0);
        nFirst = idx * td.batchPerCore + (idx < td.extraBatch ? idx : td.extraBatch);

        planeLen = (uint64_t)t.depth * t.height * t.width;
        xGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(x), (uint64_t)t.batch * t.channels * planeLen);
        bGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(bias), t.channels);
        yGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(y), t.batch);

        slabElems = t.kd * t.phChunk * t.kh * t.pitch;
        pipe.InitBuffer(inQue, BUFFER_NUM, slabElems * sizeof(T));
        pipe.InitBuffer(slabBuf, slabElems * sizeof(float));
        pipe.InitBuffer(outBuf, (nCount + 16) * sizeof(T));
        reducer.Init(&pipe, t.phChunk, t.pitch, t.pw);
        invCount = 1.0f / static_cast<float>(t.pd * t.ph * t.pw);
    }

    __aicore__ inline void Process()
    {
        if (nCount == 0) {
            return;
        }
        LocalTensor<T> out = outBuf.Get<T>();
        for (uint32_t i = 0; i < nCount; ++i) {
            uint32_t n = nFirst + i;
            float total = 0.0f;
            for (uint32_t c = 0; c < t.channels; ++c) {
                total += ChannelMean((uint64_t)n * t.channels + c) + static_cast<float>(bGm.GetValue(c));
            }
            out.SetValue(i, static_cast<T>(total));
        }
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(ev);
        WaitFlag<HardEvent::S_MTE3>(ev);
        DataCopyExtParams cp{1, static_cast<uint32_t>(nCount * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[nFirst], out, cp);
    }

private:
    __aicore__ inline float ChannelMean(uint64_t plane)
    {
        reducer.ResetAcc();
        uint64_t base = plane * planeLen;
        for (uint32_t dz = 0; dz < t.pd; ++dz) {
            for (uint32_t r0 = 0; r0 < t.ph; r0 += t.phChunk) {
                uint32_t rows = (t.ph - r0) < t.phChunk ? (t.ph - r0) : t.phChunk;
                Load(base, dz, r0, rows);
                Reduce(rows);
            }
        }
        return reducer.Total() * invCount;
    }

    __aicore__ inline void Load(uint64_t base, uint32_t dz, uint32_t r0, uint32_t rows)
    {
        LocalTensor<T> raw = inQue.AllocTensor<T>();
        uint32_t hRows = rows * t.kh;
        uint32_t slice = hRows * t.pitch;
        uint32_t rowBytes = t.width * sizeof(T);
        uint8_t rightPad = static_cast<uint8_t>(t.pitch - t.width);
        DataCopyExtParams cp{static_cast<uint16_t>(hRows), rowBytes, 0, 0, 0};
        DataCopyPadExtParams<T> pad{true, 0, rightPad, static_cast<T>(0)};
        for (uint32_t i = 0; i < t.kd; ++i) {
            uint64_t off = base + ((uint64_t)(dz * t.kd + i) * t.height + r0 * t.kh) * t.width;
            DataCopyPad(raw[i * slice], xGm[off], cp, pad);
        }
        inQue.EnQue(raw);
    }

    __aicore__ inline void Reduce(uint32_t rows)
    {
        LocalTensor<T> raw = inQue.DeQue<T>();
        LocalTensor<float> slab = slabBuf.Get<float>();
        uint32_t len = t.kd * rows * t.kh * t.pitch;
        if constexpr (IsSameType<T, float>::value) {
            Muls(slab, raw, t.invDivisor, len);
        } else {
            Cast(slab, raw, RoundMode::CAST_NONE, len);
            PipeBarrier<PIPE_V>();
            Muls(slab, slab, t.invDivisor, len);
        }
        PipeBarrier<PIPE_V>();
        inQue.FreeTensor(raw);
        // division precedes the max so a negative divisor still picks the right element
        reducer.Reduce(slab, rows, t.kd, t.kh, t.pitch);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQue;
    TBuf<TPosition::VECCALC> slabBuf, outBuf;
    GlobalTensor<T> xGm, bGm, yGm;
    WindowPeakReducer reducer;
    PooledPeakMeanChannelSumTilingData t;
    uint64_t planeLen;
    uint32_t slabElems, nCount, nFirst;
    float invCount;
};

extern "C" __global__ __aicore__ void pooled_peak_mean_channel_sum_custom(GM_ADDR x, GM_ADDR bias, GM_ADDR y,
                                                                          GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        PooledPeakMeanChannelSum<float> op;
        op.Init(x, bias, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        PooledPeakMeanChannelSum<half> op;
        op.Init(x, bias, y, td);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// y[n] = sum_c ( mean(maxpool3d(x[n, c] / divisor, (kd, kh, 2))) + bias[c] ), shape [N, 1, 1, 1]
at::Tensor pooled_peak_mean_channel_sum_impl_npu(const at::Tensor &x, const at::Tensor &bias, double divisor,
                                                 int64_t pool_d, int64_t pool_h)
{
    TORCH_CHECK(x.dim() == 5, "expected NCDHW input");
    at::Tensor xc = x.contiguous();
    at::Tensor bc = bias.reshape({-1}).to(x.scalar_type()).contiguous();
    at::Tensor y = at::empty({x.size(0), 1, 1, 1}, x.options());
    float dv = static_cast<float>(divisor);
    EXEC_NPU_CMD(aclnnPooledPeakMeanChannelSumCustom, xc, bc, dv, pool_d, pool_h, y);
    return y;
}

// conv3d on the cube path, then the fused divide / maxpool / global mean / bias / channel-sum reduction
at::Tensor conv3d_pooled_peak_mean_channel_sum_npu(const at::Tensor &x, const at::Tensor &conv_w,
                                                   const at::Tensor &conv_b, const at::Tensor &bias,
                                                   double divisor, int64_t pool_d, int64_t pool_h, int64_t pool_w)
{
    TORCH_CHECK(pool_w == 2, "width pooling window must be 2");
    at::Tensor h = at::conv3d(x, conv_w, conv_b);
    return pooled_peak_mean_channel_sum_impl_npu(h, bias, divisor, pool_d, pool_h);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("pooled_peak_mean_channel_sum_custom", &pooled_peak_mean_channel_sum_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("pooled_peak_mean_channel_sum_custom", &pooled_peak_mean_channel_sum_impl_npu,
          "divide + maxpool3d + global avg + bias + channel sum");
    m.def("conv3d_pooled_peak_mean_channel_sum", &conv3d_pooled_peak_mean_channel_sum_npu,
          "conv3d followed by the fused reduction");
}
"""
