project_json_src='''
[
    {
        "op": "PerChannelWindowFilterCustom",
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
BEGIN_TILING_DATA_DEF(PerChannelWindowFilterTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planes);      // N * C
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, kSize);       // square kernel edge
  TILING_DATA_FIELD_DEF(uint32_t, colTile);     // output columns per work item
  TILING_DATA_FIELD_DEF(uint32_t, colTiles);
  TILING_DATA_FIELD_DEF(uint32_t, itemsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, extraItems);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(PerChannelWindowFilterCustom, PerChannelWindowFilterTilingData)
}
"""

host_operator_src="""
#include "per_channel_window_filter_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include <algorithm>

namespace optiling {
namespace {
constexpr uint32_t BUF = 2;
constexpr uint64_t UB_RESERVE = 8 * 1024;

// Largest 32B-aligned column tile such that K*K shifted input slices, the
// fp32 accumulator and the output tile (all double buffered) fit in UB.
uint32_t PickColumnTile(uint32_t outW, uint32_t k, uint32_t tBytes, uint64_t ub)
{
    uint32_t align = 32 / tBytes;
    uint64_t perCol = static_cast<uint64_t>(k) * k * tBytes * BUF + 4 * (k * k + 1) + tBytes * BUF;
    uint64_t tile = (ub - UB_RESERVE) / perCol;
    tile = std::min<uint64_t>(tile, 4096);
    tile = tile / align * align;
    uint32_t need = (outW + align - 1) / align * align;
    return static_cast<uint32_t>(std::max<uint64_t>(align, std::min<uint64_t>(tile, need)));
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t coreNum = platform.GetCoreNumAiv();

    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& ws = context->GetInputShape(1)->GetStorageShape();
    uint32_t n = xs.GetDim(0), c = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t k = ws.GetDim(2);
    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t tBytes = dt == ge::DT_FLOAT16 ? 2 : 4;

    PerChannelWindowFilterTilingData td;
    td.set_planes(n * c);
    td.set_channels(c);
    td.set_inH(h);
    td.set_inW(w);
    td.set_outH(h - k + 1);
    td.set_outW(w - k + 1);
    td.set_kSize(k);
    uint32_t colTile = PickColumnTile(w - k + 1, k, tBytes, ub);
    uint32_t colTiles = (w - k + 1 + colTile - 1) / colTile;
    td.set_colTile(colTile);
    td.set_colTiles(colTiles);

    uint64_t items = static_cast<uint64_t>(n) * c * (h - k + 1) * colTiles;
    uint32_t cores = static_cast<uint32_t>(std::max<uint64_t>(1, std::min<uint64_t>(coreNum, items)));
    td.set_itemsPerCore(static_cast<uint32_t>(items / cores));
    td.set_extraItems(static_cast<uint32_t>(items % cores));

    context->SetBlockDim(cores);
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
    int64_t k = w->GetDim(2);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, x->GetDim(1));
    y->SetDim(2, x->GetDim(2) - k + 1);
    y->SetDim(3, x->GetDim(3) - k + 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class PerChannelWindowFilterCustom : public OpDef {
public:
    explicit PerChannelWindowFilterCustom(const char* name) : OpDef(name)
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
OP_ADD(PerChannelWindowFilterCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_TAPS = 64;   // up to 8x8 kernels

template <typename T>
__aicore__ inline float LoadScalar(const GlobalTensor<T>& g, uint64_t i)
{
    if constexpr (IsSameType<T, float>::value) {
        return g.GetValue(i);
    } else {
        return static_cast<float>(g.GetValue(i));
    }
}

// Accumulates sum_t w[t] * slice_t into acc (fp32). Slices sit `pitch` apart.
template <typename T>
class TapAccumulator {
public:
    __aicore__ inline void Run(const LocalTensor<float>& acc, const LocalTensor<float>& conv,
                               const LocalTensor<T>& slices, const float* taps, uint32_t nTaps,
                               uint32_t pitch, uint32_t cols)
    {
        if constexpr (IsSameType<T, float>::value) {
            Muls(acc, slices, taps[0], cols);
            PipeBarrier<PIPE_V>();
            for (uint32_t t = 1; t < nTaps; ++t) {
                Axpy(acc, slices[t * pitch], taps[t], cols);
                PipeBarrier<PIPE_V>();
            }
        } else {
            Cast(conv, slices, RoundMode::CAST_NONE, nTaps * pitch);
            PipeBarrier<PIPE_V>();
            Muls(acc, conv, taps[0], cols);
            PipeBarrier<PIPE_V>();
            for (uint32_t t = 1; t < nTaps; ++t) {
                Axpy(acc, conv[t * pitch], taps[t], cols);
                PipeBarrier<PIPE_V>();
            }
        }
    }
};

template <typename T>
class PerChannelWindowFilterKernel {
public:
    __aicore__ inline PerChannelWindowFilterKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, const PerChannelWindowFilterTilingData& t)
    {
        td = t;
        nTaps = td.kSize * td.kSize;
        pitch = td.colTile;   // already 32B aligned on the host
        uint32_t idx = GetBlockIdx();
        itemCount = td.itemsPerCore + (idx < td.extraItems ? 1 : 0);
        firstItem = static_cast<uint64_t>(idx) * td.itemsPerCore + (idx < td.extraItems ? idx : td.extraItems);

        xGm.SetGlobalBuffer((__gm__ T*)x);
        wGm.SetGlobalBuffer((__gm__ T*)w);
        yGm.SetGlobalBuffer((__gm__ T*)y);

        pipe.InitBuffer(sliceQ, BUFFER_NUM, nTaps * pitch * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, pitch * sizeof(T));
        pipe.InitBuffer(accBuf, pitch * sizeof(float));
        if constexpr (!IsSameType<T, float>::value) {
            pipe.InitBuffer(convBuf, nTaps * pitch * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        uint32_t cachedChannel = 0xFFFFFFFFu;
        for (uint64_t it = firstItem; it < firstItem + itemCount; ++it) {
            uint32_t ct = static_cast<uint32_t>(it % td.colTiles);
            uint64_t rest = it / td.colTiles;
            uint32_t oh = static_cast<uint32_t>(rest % td.outH);
            uint32_t plane = static_cast<uint32_t>(rest / td.outH);
            uint32_t ch = plane % td.channels;
            if (ch != cachedChannel) {
                for (uint32_t t = 0; t < nTaps; ++t) {
                    taps[t] = LoadScalar(wGm, static_cast<uint64_t>(ch) * nTaps + t);
                }
                cachedChannel = ch;
            }
            uint32_t c0 = ct * td.colTile;
            uint32_t cols = (td.outW - c0) < td.colTile ? (td.outW - c0) : td.colTile;
            CopyIn(plane, oh, c0, cols);
            Compute(cols);
            CopyOut(plane, oh, c0, cols);
        }
    }

private:
    // slice (kh, kw) = x[plane, oh + kh, c0 + kw : c0 + kw + cols]
    __aicore__ inline void CopyIn(uint32_t plane, uint32_t oh, uint32_t c0, uint32_t cols)
    {
        LocalTensor<T> s = sliceQ.AllocTensor<T>();
        uint64_t planeOff = static_cast<uint64_t>(plane) * td.inH * td.inW;
        DataCopyExtParams cp{1, static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        for (uint32_t kh = 0; kh < td.kSize; ++kh) {
            uint64_t rowOff = planeOff + static_cast<uint64_t>(oh + kh) * td.inW + c0;
            for (uint32_t kw = 0; kw < td.kSize; ++kw) {
                DataCopyPad(s[(kh * td.kSize + kw) * pitch], xGm[rowOff + kw], cp, pad);
            }
        }
        sliceQ.EnQue(s);
    }

    __aicore__ inline void Compute(uint32_t cols)
    {
        LocalTensor<T> s = sliceQ.DeQue<T>();
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> conv;
        if constexpr (!IsSameType<T, float>::value) {
            conv = convBuf.Get<float>();
        }
        TapAccumulator<T> tapAcc;
        tapAcc.Run(acc, conv, s, taps, nTaps, pitch, cols);
        sliceQ.FreeTensor(s);

        LocalTensor<T> o = outQ.AllocTensor<T>();
        if constexpr (IsSameType<T, float>::value) {
            DataCopy(o, acc, pitch);
        } else {
            Cast(o, acc, RoundMode::CAST_ROUND, cols);
        }
        outQ.EnQue(o);
    }

    __aicore__ inline void CopyOut(uint32_t plane, uint32_t oh, uint32_t c0, uint32_t cols)
    {
        LocalTensor<T> o = outQ.DeQue<T>();
        uint64_t off = (static_cast<uint64_t>(plane) * td.outH + oh) * td.outW + c0;
        DataCopyExtParams cp{1, static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[off], o, cp);
        outQ.FreeTensor(o);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> sliceQ;   // K*K shifted input rows
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> accBuf;               // fp32 output row
    TBuf<TPosition::VECCALC> convBuf;              // fp32 copy of slices (half path)
    GlobalTensor<T> xGm, wGm, yGm;
    PerChannelWindowFilterTilingData td;
    float taps[MAX_TAPS];
    uint32_t nTaps = 0;
    uint32_t pitch = 0;
    uint32_t itemCount = 0;
    uint64_t firstItem = 0;
};

extern "C" __global__ __aicore__ void per_channel_window_filter_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR y,
                                                                       GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        PerChannelWindowFilterKernel<float> op;
        op.Init(x, weight, y, td);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        PerChannelWindowFilterKernel<half> op;
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

// Depthwise conv (groups == channels, one filter per channel). The kernel works on
// the valid region at stride 1; zero padding is applied here and a larger stride
// is taken by subsampling the dense result.
at::Tensor per_channel_window_filter_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                              int64_t stride, int64_t padding)
{
    TORCH_CHECK(x.dim() == 4 && weight.dim() == 4, "expected NCHW input and (C,1,K,K) weight");
    TORCH_CHECK(weight.size(0) == x.size(1) && weight.size(1) == 1, "only channel multiplier 1 supported");
    TORCH_CHECK(weight.size(2) == weight.size(3) && weight.size(2) <= 8, "square kernel up to 8x8");
    at::Tensor xin = x.contiguous();
    if (padding > 0) {
        xin = at::constant_pad_nd(xin, {padding, padding, padding, padding}, 0).contiguous();
    }
    int64_t k = weight.size(2);
    at::Tensor y = at::empty({xin.size(0), xin.size(1), xin.size(2) - k + 1, xin.size(3) - k + 1}, xin.options());
    at::Tensor w = weight.to(xin.scalar_type()).contiguous();
    EXEC_NPU_CMD(aclnnPerChannelWindowFilterCustom, xin, w, y);
    if (stride > 1) {
        y = y.slice(2, 0, c10::nullopt, stride).slice(3, 0, c10::nullopt, stride).contiguous();
    }
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("per_channel_window_filter_custom", &per_channel_window_filter_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("per_channel_window_filter_custom", &per_channel_window_filter_impl_npu,
          "depthwise 2d convolution, square kernel",
          py::arg("x"), py::arg("weight"), py::arg("stride") = 1, py::arg("padding") = 0);
}
"""
