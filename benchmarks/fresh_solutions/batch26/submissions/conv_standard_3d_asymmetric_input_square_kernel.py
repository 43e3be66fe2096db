project_json_src='''
[
    {
        "op": "DepthPreservingVolumeConvCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "weight", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
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
BEGIN_TILING_DATA_DEF(DepthPreservingVolumeConvTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inC);
  TILING_DATA_FIELD_DEF(uint32_t, outC);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, depth);      // last dim, kernel extent 1 along it
  TILING_DATA_FIELD_DEF(uint32_t, kH);
  TILING_DATA_FIELD_DEF(uint32_t, kW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, rowLen);     // outW * depth, contiguous per (n, c, oh)
  TILING_DATA_FIELD_DEF(uint32_t, segLen);     // elements of rowLen handled per work item
  TILING_DATA_FIELD_DEF(uint32_t, segsPerRow);
  TILING_DATA_FIELD_DEF(uint32_t, totalItems);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DepthPreservingVolumeConvCustom, DepthPreservingVolumeConvTilingData)
}
"""

host_operator_src="""
#include "depth_preserving_volume_conv_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include <algorithm>

namespace optiling {
static uint32_t RoundDown(uint64_t v, uint32_t a) { return static_cast<uint32_t>(v / a * a); }
static uint32_t RoundUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t coreNum = platform.GetCoreNumAiv();

    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();   // N C H W D
    const gert::Shape& ws = context->GetInputShape(1)->GetStorageShape();   // O C kh kw 1
    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t tBytes = dt == ge::DT_FLOAT16 ? 2 : 4;
    uint32_t align = 32 / tBytes;

    DepthPreservingVolumeConvTilingData td;
    uint32_t n = xs.GetDim(0), c = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3), d = xs.GetDim(4);
    uint32_t o = ws.GetDim(0), kh = ws.GetDim(2), kw = ws.GetDim(3);
    uint32_t oh = h - kh + 1, ow = w - kw + 1;
    td.set_batch(n);
    td.set_inC(c);
    td.set_outC(o);
    td.set_inH(h);
    td.set_inW(w);
    td.set_depth(d);
    td.set_kH(kh);
    td.set_kW(kw);
    td.set_outH(oh);
    td.set_outW(ow);
    uint32_t rowLen = ow * d;
    td.set_rowLen(rowLen);

    // UB: taps input slices (x2), fp32 copy of slices, fp32 acc, output tile (x2), weights
    uint32_t taps = c * kh * kw;
    uint64_t weightBytes = static_cast<uint64_t>(RoundUp(o * taps, 8)) * (4 + tBytes);
    uint64_t perElem = static_cast<uint64_t>(taps) * (2 * tBytes + (tBytes == 4 ? 0 : 4)) + 4 + 2 * tBytes;
    uint64_t avail = ub - weightBytes - 8 * 1024;
    uint32_t seg = RoundDown(avail / perElem, align);
    seg = std::min<uint32_t>(seg, RoundUp(rowLen, align));
    seg = std::max<uint32_t>(seg, align);
    td.set_segLen(seg);
    td.set_segsPerRow((rowLen + seg - 1) / seg);
    uint32_t items = n * oh * td.get_segsPerRow();
    td.set_totalItems(items);

    context->SetBlockDim(std::max<uint32_t>(1, std::min<uint32_t>(coreNum, items)));
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 2 : 1);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* wsz = context->GetWorkspaceSizes(1);
    wsz[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    const gert::Shape* w = context->GetInputShape(1);
    gert::Shape* y = context->GetOutputShape(0);
    y->SetDimNum(5);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    y->SetDim(2, x->GetDim(2) - w->GetDim(2) + 1);
    y->SetDim(3, x->GetDim(3) - w->GetDim(3) + 1);
    y->SetDim(4, x->GetDim(4) - w->GetDim(4) + 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class DepthPreservingVolumeConvCustom : public OpDef {
public:
    explicit DepthPreservingVolumeConvCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("weight")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(DepthPreservingVolumeConvCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// With a (kh, kw, 1) kernel and contiguous (W, D) trailing dims, the input patch
// for tap (c, i, j) and output row (n, oh) is one contiguous run:
//   x[n, c, oh + i, j : j + outW, :]  ->  outW * D elements starting at j * D.
// Each output row is therefore sum over taps of weight * shifted run.

template <typename T>
__aicore__ inline void WidenTo(const LocalTensor<float>& dst, const LocalTensor<T>& src, uint32_t n)
{
    if constexpr (IsSameType<T, float>::value) {
        DataCopy(dst, src, n);
    } else {
        Cast(dst, src, RoundMode::CAST_NONE, n);
    }
}

template <typename T>
class DepthPreservingVolumeConvKernel {
public:
    __aicore__ inline DepthPreservingVolumeConvKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, const DepthPreservingVolumeConvTilingData& t)
    {
        td = t;
        taps = td.inC * td.kH * td.kW;
        seg = td.segLen;
        xGm.SetGlobalBuffer((__gm__ T*)x);
        wGm.SetGlobalBuffer((__gm__ T*)w);
        yGm.SetGlobalBuffer((__gm__ T*)y);

        uint32_t wCount = (td.outC * taps + 7) / 8 * 8;
        pipe.InitBuffer(runQ, BUFFER_NUM, taps * seg * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, seg * sizeof(T));
        pipe.InitBuffer(accBuf, seg * sizeof(float));
        pipe.InitBuffer(wRaw, wCount * sizeof(T));
        pipe.InitBuffer(wF32, wCount * sizeof(float));
        if constexpr (!IsSameType<T, float>::value) {
            pipe.InitBuffer(runF32, taps * seg * sizeof(float));
        }
        LoadWeights(wCount);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t item = GetBlockIdx(); item < td.totalItems; item += GetBlockNum()) {
            uint32_t s = item % td.segsPerRow;
            uint32_t row = item / td.segsPerRow;        // n * outH + oh
            uint32_t oh = row % td.outH;
            uint32_t nb = row / td.outH;
            uint32_t off = s * seg;
            uint32_t len = (td.rowLen - off) < seg ? (td.rowLen - off) : seg;
            FetchRuns(nb, oh, off, len);
            EmitChannels(nb, oh, off, len);
        }
    }

private:
    __aicore__ inline void LoadWeights(uint32_t wCount)
    {
        LocalTensor<T> raw = wRaw.Get<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(td.outC * taps * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(raw, wGm, cp, pad);
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(ev);
        WaitFlag<HardEvent::MTE2_V>(ev);
        weights = wF32.Get<float>();
        WidenTo(weights, raw, wCount);
        event_t ev2 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev2);
        WaitFlag<HardEvent::V_S>(ev2);
    }

    __aicore__ inline void FetchRuns(uint32_t nb, uint32_t oh, uint32_t off, uint32_t len)
    {
        LocalTensor<T> runs = runQ.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        uint64_t planeSz = static_cast<uint64_t>(td.inH) * td.inW * td.depth;
        uint64_t lineSz = static_cast<uint64_t>(td.inW) * td.depth;
        uint32_t t = 0;
        for (uint32_t c = 0; c < td.inC; ++c) {
            uint64_t cBase = (static_cast<uint64_t>(nb) * td.inC + c) * planeSz;
            for (uint32_t i = 0; i < td.kH; ++i) {
                uint64_t lineBase = cBase + (oh + i) * lineSz + off;
                for (uint32_t j = 0; j < td.kW; ++j, ++t) {
                    DataCopyPad(runs[t * seg], xGm[lineBase + static_cast<uint64_t>(j) * td.depth], cp, pad);
                }
            }
        }
        runQ.EnQue(runs);
    }

    __aicore__ inline void EmitChannels(uint32_t nb, uint32_t oh, uint32_t off, uint32_t len)
    {
        LocalTensor<T> runs = runQ.DeQue<T>();
        LocalTensor<float> src;
        if constexpr (IsSameType<T, float>::value) {
            src = runs;
        } else {
            src = runF32.Get<float>();
            Cast(src, runs, RoundMode::CAST_NONE, taps * seg);
            PipeBarrier<PIPE_V>();
        }
        LocalTensor<float> acc = accBuf.Get<float>();
        uint64_t outPlane = static_cast<uint64_t>(td.outH) * td.rowLen;

        for (uint32_t oc = 0; oc < td.outC; ++oc) {
            uint32_t wBase = oc * taps;
            Muls(acc, src, weights.GetValue(wBase), len);
            PipeBarrier<PIPE_V>();
            for (uint32_t t = 1; t < taps; ++t) {
                Axpy(acc, src[t * seg], weights.GetValue(wBase + t), len);
                PipeBarrier<PIPE_V>();
            }
            LocalTensor<T> out = outQ.AllocTensor<T>();
            if constexpr (IsSameType<T, float>::value) {
                DataCopy(out, acc, seg);
            } else {
                Cast(out, acc, RoundMode::CAST_ROUND, len);
            }
            outQ.EnQue(out);
            out = outQ.DeQue<T>();
            uint64_t dst = (static_cast<uint64_t>(nb) * td.outC + oc) * outPlane +
                           static_cast<uint64_t>(oh) * td.rowLen + off;
            DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            DataCopyPad(yGm[dst], out, cp);
            outQ.FreeTensor(out);
        }
        runQ.FreeTensor(runs);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> runQ;     // taps shifted input runs, seg apart
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;    // one output channel segment
    TBuf<TPosition::VECCALC> accBuf;
    TBuf<TPosition::VECCALC> wRaw, wF32;           // all weights, resident for the whole kernel
    TBuf<TPosition::VECCALC> runF32;
    LocalTensor<float> weights;
    GlobalTensor<T> xGm, wGm, yGm;
    DepthPreservingVolumeConvTilingData td;
    uint32_t taps = 0;
    uint32_t seg = 0;
};

extern "C" __global__ __aicore__ void depth_preserving_volume_conv_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR y,
                                                                          GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        DepthPreservingVolumeConvKernel<float> op;
        op.Init(x, weight, y, td);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        DepthPreservingVolumeConvKernel<half> op;
        op.Init(x, weight, y, td);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// 3D convolution with a (k, k, 1) kernel, groups = 1, dilation = 1, no bias.
// Padding is materialised here; stride > 1 subsamples the stride-1 result.
at::Tensor depth_preserving_volume_conv_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                 int64_t stride, int64_t padding)
{
    TORCH_CHECK(x.dim() == 5 && weight.dim() == 5, "expected 5-D input and weight");
    TORCH_CHECK(weight.size(4) == 1, "kernel extent along the last dim must be 1");
    TORCH_CHECK(weight.size(1) == x.size(1), "grouped weights are not supported");
    at::Tensor xin = x.contiguous();
    if (padding > 0) {
        xin = at::constant_pad_nd(xin, {padding, padding, padding, padding, padding, padding}, 0).contiguous();
    }
    at::Tensor w = weight.to(xin.scalar_type()).contiguous();
    int64_t oh = xin.size(2) - w.size(2) + 1;
    int64_t ow = xin.size(3) - w.size(3) + 1;
    at::Tensor y = at::empty({xin.size(0), w.size(0), oh, ow, xin.size(4)}, xin.options());
    EXEC_NPU_CMD(aclnnDepthPreservingVolumeConvCustom, xin, w, y);
    if (stride > 1) {
        y = y.slice(2, 0, c10::nullopt, stride)
             .slice(3, 0, c10::nullopt, stride)
             .slice(4, 0, c10::nullopt, stride)
             .contiguous();
    }
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("depth_preserving_volume_conv_custom", &depth_preserving_volume_conv_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("depth_preserving_volume_conv_custom", &depth_preserving_volume_conv_impl_npu,
          "3d convolution with (k, k, 1) kernel",
          py::arg("x"), py::arg("weight"), py::arg("stride") = 1, py::arg("padding") = 0);
}
"""
