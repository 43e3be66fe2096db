project_json_src='''
[
    {
        "op": "PerChannelFilter2dCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "weight", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "attr": [
            {"name": "stride", "param_type": "optional", "type": "int", "default_value": "1"},
            {"name": "dilation", "param_type": "optional", "type": "int", "default_value": "1"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(PerChannelFilter2dTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, inH);          // already zero-padded by the caller
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, inWAligned);   // UB pitch of one input row
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, outWAligned);
  TILING_DATA_FIELD_DEF(uint32_t, kh);
  TILING_DATA_FIELD_DEF(uint32_t, kw);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, dilation);
  TILING_DATA_FIELD_DEF(uint32_t, totalRows);    // N * C * outH
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, rowsTail);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(PerChannelFilter2dCustom, PerChannelFilter2dTilingData)
}
"""

host_operator_src="""
#include "per_channel_filter2d_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
inline uint32_t Align16(uint32_t v) { return (v + 15) / 16 * 16; }

inline uint32_t OutExtent(uint32_t in, uint32_t k, uint32_t s, uint32_t d)
{
    uint32_t span = d * (k - 1) + 1;
    return in >= span ? (in - span) / s + 1 : 0;
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    PerChannelFilter2dTilingData td;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();   // [N, C, Hp, Wp]
    const gert::Shape& ws = context->GetInputShape(1)->GetStorageShape();   // [C, 1, KH, KW]
    uint32_t n = static_cast<uint32_t>(xs.GetDim(0));
    uint32_t c = static_cast<uint32_t>(xs.GetDim(1));
    uint32_t h = static_cast<uint32_t>(xs.GetDim(2));
    uint32_t w = static_cast<uint32_t>(xs.GetDim(3));
    uint32_t kh = static_cast<uint32_t>(ws.GetDim(ws.GetDimNum() - 2));
    uint32_t kw = static_cast<uint32_t>(ws.GetDim(ws.GetDimNum() - 1));

    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    uint32_t stride = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    uint32_t dil = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(1));
    uint32_t oh = OutExtent(h, kh, stride, dil);
    uint32_t ow = OutExtent(w, kw, stride, dil);

    uint32_t rows = n * c * oh;
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t used = rows < cores ? rows : cores;
    if (used == 0) {
        used = 1;
    }

    td.set_channels(c);
    td.set_inH(h);
    td.set_inW(w);
    td.set_inWAligned(Align16(w));
    td.set_outH(oh);
    td.set_outW(ow);
    td.set_outWAligned(Align16(ow));
    td.set_kh(kh);
    td.set_kw(kw);
    td.set_stride(stride);
    td.set_dilation(dil);
    td.set_totalRows(rows);
    td.set_rowsPerCore(rows / used);
    td.set_rowsTail(rows % used);

    context->SetBlockDim(used);
    context->SetTilingKey(context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 1);
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
    const gert::Shape* xs = context->GetInputShape(0);
    const gert::Shape* ws = context->GetInputShape(1);
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    int64_t s = *attrs->GetAttrPointer<int64_t>(0);
    int64_t d = *attrs->GetAttrPointer<int64_t>(1);
    int64_t kh = ws->GetDim(ws->GetDimNum() - 2);
    int64_t kw = ws->GetDim(ws->GetDimNum() - 1);
    gert::Shape* ys = context->GetOutputShape(0);
    *ys = *xs;
    ys->SetDim(2, (xs->GetDim(2) - d * (kh - 1) - 1) / s + 1);
    ys->SetDim(3, (xs->GetDim(3) - d * (kw - 1) - 1) / s + 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class PerChannelFilter2dCustom : public OpDef {
public:
    explicit PerChannelFilter2dCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("dilation").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(PerChannelFilter2dCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_TAPS = 64;   // kh * kw upper bound for the cached filter

// Column tap tables: tbl[j][o] = byte offset of column o*stride + j*dilation inside an input row.
struct TapTable {
    __aicore__ static inline void Build(const LocalTensor<uint32_t>& tbl, uint32_t kw, uint32_t ow, uint32_t owA,
                                        uint32_t stride, uint32_t dil)
    {
        for (uint32_t j = 0; j < kw; ++j) {
            for (uint32_t o = 0; o < owA; ++o) {
                uint32_t col = (o < ow) ? (o * stride + j * dil) : 0;
                tbl.SetValue(j * owA + o, col * static_cast<uint32_t>(sizeof(float)));
            }
        }
    }
};

template <typename T>
class PerChannelFilter2d {
public:
    __aicore__ inline PerChannelFilter2d() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, const PerChannelFilter2dTilingData& t)
    {
        p = t;
        uint32_t idx = GetBlockIdx();
        rowCount = t.rowsPerCore + (idx < t.rowsTail ? 1 : 0);
        rowStart = idx * t.rowsPerCore + (idx < t.rowsTail ? idx : t.rowsTail);

        uint64_t planes = t.totalRows / (t.outH == 0 ? 1 : t.outH);
        xGm.SetGlobalBuffer((__gm__ T*)x, planes * t.inH * t.inW);
        yGm.SetGlobalBuffer((__gm__ T*)y, planes * t.outH * t.outW);
        wGm.SetGlobalBuffer((__gm__ float*)w, static_cast<uint64_t>(t.channels) * t.kh * t.kw);

        pipe.InitBuffer(inQ, BUFFER_NUM, t.kh * t.inWAligned * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, t.outWAligned * sizeof(T));
        pipe.InitBuffer(tapBuf, t.kw * t.outWAligned * sizeof(uint32_t));
        pipe.InitBuffer(accBuf, t.outWAligned * sizeof(float));
        pipe.InitBuffer(pickBuf, t.outWAligned * sizeof(float));
        if constexpr (!IsSameType<T, float>::value) {
            pipe.InitBuffer(castBuf, t.kh * t.inWAligned * sizeof(float));
        }
        taps = tapBuf.Get<uint32_t>();
        TapTable::Build(taps, t.kw, t.outW, t.outWAligned, t.stride, t.dilation);
    }

    __aicore__ inline void Process()
    {
        int64_t cachedCh = -1;
        for (uint32_t i = 0; i < rowCount; ++i) {
            uint32_t row = rowStart + i;
            uint32_t plane = row / p.outH;
            uint32_t oh = row % p.outH;
            uint32_t ch = plane % p.channels;
            if (static_cast<int64_t>(ch) != cachedCh) {
                LoadFilter(ch);
                cachedCh = ch;
            }
            LoadRows(plane, oh);
            Convolve();
            StoreRow(static_cast<uint64_t>(plane) * p.outH * p.outW + static_cast<uint64_t>(oh) * p.outW);
        }
    }

private:
    __aicore__ inline void LoadFilter(uint32_t ch)
    {
        uint32_t taps2d = p.kh * p.kw;
        for (uint32_t t = 0; t < taps2d && t < MAX_TAPS; ++t) {
            filt[t] = wGm.GetValue(static_cast<uint64_t>(ch) * taps2d + t);
        }
    }

    // the kh input rows feeding output row oh, dilation apart in GM, inWAligned apart in UB
    __aicore__ inline void LoadRows(uint32_t plane, uint32_t oh)
    {
        LocalTensor<T> rows = inQ.AllocTensor<T>();
        uint32_t rowBytes = p.inW * sizeof(T);
        uint32_t rowBytesAligned = (rowBytes + 31) / 32 * 32;
        DataCopyExtParams cp{static_cast<uint16_t>(p.kh), rowBytes,
                             static_cast<uint32_t>((p.dilation - 1) * p.inW * sizeof(T)),
                             static_cast<uint32_t>((p.inWAligned * sizeof(T) - rowBytesAligned) / 32), 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, static_cast<T>(0)};
        uint64_t src = (static_cast<uint64_t>(plane) * p.inH + static_cast<uint64_t>(oh) * p.stride) * p.inW;
        DataCopyPad(rows, xGm[src], cp, pad);
        inQ.EnQue(rows);
    }

    __aicore__ inline void Convolve()
    {
        LocalTensor<T> rows = inQ.DeQue<T>();
        LocalTensor<float> rf;
        if constexpr (IsSameType<T, float>::value) {
            rf = rows;
        } else {
            rf = castBuf.Get<float>();
            Cast(rf, rows, RoundMode::CAST_NONE, p.kh * p.inWAligned);
        }
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> pick = pickBuf.Get<float>();
        uint32_t n = p.outWAligned;
        Duplicate(acc, 0.0f, n);
        for (uint32_t i = 0; i < p.kh; ++i) {
            LocalTensor<float> src = rf[i * p.inWAligned];
            for (uint32_t j = 0; j < p.kw; ++j) {
                Gather(pick, src, taps[j * n], 0, n);
                Axpy(acc, pick, filt[i * p.kw + j], n);
            }
        }
        inQ.FreeTensor(rows);

        LocalTensor<T> out = outQ.AllocTensor<T>();
        if constexpr (IsSameType<T, float>::value) {
            DataCopy(out, acc, n);
        } else {
            Cast(out, acc, RoundMode::CAST_ROUND, n);
        }
        outQ.EnQue(out);
    }

    __aicore__ inline void StoreRow(uint64_t dst)
    {
        LocalTensor<T> out = outQ.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(p.outW * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[dst], out, cp);
        outQ.FreeTensor(out);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> tapBuf, accBuf, pickBuf, castBuf;
    LocalTensor<uint32_t> taps;
    GlobalTensor<T> xGm, yGm;
    GlobalTensor<float> wGm;
    PerChannelFilter2dTilingData p;
    float filt[MAX_TAPS];
    uint32_t rowCount = 0, rowStart = 0;
};

extern "C" __global__ __aicore__ void per_channel_filter2d_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR y,
                                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        PerChannelFilter2d<float> op;
        op.Init(x, weight, y, td);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        PerChannelFilter2d<half> op;
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

// Depthwise (groups == C) 2D convolution; zero padding is applied here so the kernel
// only ever reads in-bounds rows and columns.
at::Tensor per_channel_filter2d_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                         int64_t stride, int64_t padding, int64_t dilation)
{
    TORCH_CHECK(x.dim() == 4 && weight.dim() == 4, "expects NCHW input and [C,1,KH,KW] weight");
    TORCH_CHECK(weight.size(0) == x.size(1) && weight.size(1) == 1, "weight must be depthwise");
    at::Tensor xp = padding > 0 ? at::constant_pad_nd(x, {padding, padding, padding, padding}, 0) : x;
    xp = xp.contiguous();
    int64_t kh = weight.size(2);
    int64_t kw = weight.size(3);
    int64_t oh = (xp.size(2) - dilation * (kh - 1) - 1) / stride + 1;
    int64_t ow = (xp.size(3) - dilation * (kw - 1) - 1) / stride + 1;
    at::Tensor w = weight.to(at::kFloat).contiguous();
    at::Tensor result = at::empty({xp.size(0), xp.size(1), oh, ow}, xp.options());
    EXEC_NPU_CMD(aclnnPerChannelFilter2dCustom, xp, w, stride, dilation, result);
    return result;
}

// depthwise (custom kernel) followed by the 1x1 pointwise projection (cube GEMM via conv2d)
at::Tensor separable_conv2d_npu(const at::Tensor& x, const at::Tensor& dwWeight, const at::Tensor& pwWeight,
                                const c10::optional<at::Tensor>& dwBias, const c10::optional<at::Tensor>& pwBias,
                                int64_t stride, int64_t padding, int64_t dilation)
{
    at::Tensor h = per_channel_filter2d_impl_npu(x, dwWeight, stride, padding, dilation);
    if (dwBias.has_value() && dwBias->defined()) {
        h = h + dwBias->view({1, -1, 1, 1});
    }
    return at::conv2d(h, pwWeight, pwBias);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("per_channel_filter2d_custom", &per_channel_filter2d_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("per_channel_filter2d_custom", &per_channel_filter2d_impl_npu, "depthwise 2D convolution");
    m.def("separable_conv2d", &separable_conv2d_npu, "depthwise + pointwise convolution");
}
"""
