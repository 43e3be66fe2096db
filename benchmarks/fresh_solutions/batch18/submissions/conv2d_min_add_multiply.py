project_json_src='''
[
    {
        "op": "ConvCapShiftScaleCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "weight", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "conv_bias", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float"]},
            {"name": "shift", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "attr": [
            {"name": "cap", "param_type": "required", "type": "float"},
            {"name": "scale", "param_type": "required", "type": "float"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvCapShiftScaleTiling)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, outWAlign);
  TILING_DATA_FIELD_DEF(uint32_t, ksz);
  TILING_DATA_FIELD_DEF(uint32_t, ciChunk);     // input channels per tap load
  TILING_DATA_FIELD_DEF(uint32_t, coChunk);     // output channels accumulated together
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, rowsAll);
  TILING_DATA_FIELD_DEF(float, cap);
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvCapShiftScaleCustom, ConvCapShiftScaleTiling)
}
"""

host_operator_src="""
#include "conv_cap_shift_scale_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t CI_CHUNK_MAX = 16;
constexpr uint64_t UB_RESERVE = 8 * 1024;

inline uint32_t AlignTo16(uint32_t v) { return (v + 15) / 16 * 16; }

// UB: tap tiles (2 x ciChunk rows, T) + fp32 copy + acc/out per output channel
void SplitChannels(uint64_t ub, uint32_t cin, uint32_t cout, uint32_t owA, uint32_t elem,
                   uint32_t &ciChunk, uint32_t &coChunk)
{
    ciChunk = cin < CI_CHUNK_MAX ? cin : CI_CHUNK_MAX;
    uint64_t fixed = (uint64_t)ciChunk * owA * (2ULL * elem + 4) + UB_RESERVE;
    uint64_t perCo = (uint64_t)owA * (4 + 2ULL * elem);
    uint64_t c = ub > fixed ? (ub - fixed) / perCo : 1;
    if (c > cout) c = cout;
    if (c == 0) c = 1;
    coChunk = static_cast<uint32_t>(c);
}
}

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    auto xs = context->GetInputShape(0)->GetStorageShape();
    auto ws = context->GetInputShape(1)->GetStorageShape();
    const auto *attrs = context->GetAttrs();
    float cap = *attrs->GetAttrPointer<float>(0);
    float scale = *attrs->GetAttrPointer<float>(1);

    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t cout = ws.GetDim(0), k = ws.GetDim(2);
    uint32_t oh = h - k + 1, ow = w - k + 1;
    uint32_t owA = AlignTo16(ow);
    auto dtype = context->GetInputDesc(0)->GetDataType();
    uint32_t elem = dtype == ge::DT_FLOAT16 ? 2 : 4;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t ciChunk = 1, coChunk = 1;
    SplitChannels(ub, cin, cout, owA, elem, ciChunk, coChunk);

    uint32_t rows = n * oh;
    uint32_t per = (rows + cores - 1) / cores;

    ConvCapShiftScaleTiling t;
    t.set_batch(n); t.set_cin(cin); t.set_cout(cout);
    t.set_inH(h); t.set_inW(w); t.set_outH(oh); t.set_outW(ow); t.set_outWAlign(owA);
    t.set_ksz(k);
    t.set_ciChunk(ciChunk);
    t.set_coChunk(coChunk);
    t.set_rowsPerCore(per);
    t.set_rowsAll(rows);
    t.set_cap(cap);
    t.set_scale(scale);

    context->SetBlockDim((rows + per - 1) / per);
    context->SetTilingKey(dtype == ge::DT_FLOAT16 ? 1 : 0);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    size_t *wsz = context->GetWorkspaceSizes(1);
    wsz[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    gert::Shape *y = context->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    y->SetDim(2, x->GetDim(2) - w->GetDim(2) + 1);
    y->SetDim(3, x->GetDim(3) - w->GetDim(3) + 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvCapShiftScaleCustom : public OpDef {
public:
    explicit ConvCapShiftScaleCustom(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("conv_bias").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("shift").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("cap").Float();
        this->Attr("scale").Float();
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ConvCapShiftScaleCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// (min(v, cap) + shift) * scale on one accumulated row
struct CapShiftScale {
    __aicore__ static inline void Apply(LocalTensor<float> &row, float cap, float shift, float scale, uint32_t n)
    {
        Mins(row, row, cap, n);
        PipeBarrier<PIPE_V>();
        Adds(row, row, shift, n);
        PipeBarrier<PIPE_V>();
        Muls(row, row, scale, n);
    }
};

template <typename T>
class ConvCapShiftScale {
public:
    __aicore__ inline ConvCapShiftScale() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR cb, GM_ADDR sh, GM_ADDR y,
                                const ConvCapShiftScaleTiling &t)
    {
        p = t;
        xGm.SetGlobalBuffer((__gm__ T *)x);
        wGm.SetGlobalBuffer((__gm__ T *)w);
        cbGm.SetGlobalBuffer((__gm__ float *)cb);
        shGm.SetGlobalBuffer((__gm__ float *)sh);
        yGm.SetGlobalBuffer((__gm__ T *)y);
        rBeg = GetBlockIdx() * p.rowsPerCore;
        rEnd = rBeg + p.rowsPerCore;
        if (rEnd > p.rowsAll) rEnd = p.rowsAll;

        pipe.InitBuffer(tapQ, BUFFER_NUM, p.ciChunk * p.outWAlign * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, p.coChunk * p.outWAlign * sizeof(T));
        pipe.InitBuffer(tapF32, p.ciChunk * p.outWAlign * sizeof(float));
        pipe.InitBuffer(accBuf, p.coChunk * p.outWAlign * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = rBeg; r < rEnd; ++r) {
            uint32_t n = r / p.outH;
            uint32_t oy = r % p.outH;
            for (uint32_t co0 = 0; co0 < p.cout; co0 += p.coChunk) {
                uint32_t coN = p.cout - co0 < p.coChunk ? p.cout - co0 : p.coChunk;
                Accumulate(n, oy, co0, coN);
                Epilogue(co0, coN);
                Store(n, oy, co0, coN);
            }
        }
    }

private:
    // ciN input rows (row oy+kh, columns kw .. kw+outW) land contiguously, one per owA slot
    __aicore__ inline void LoadTap(uint32_t n, uint32_t oy, uint32_t ci0, uint32_t ciN, uint32_t kh, uint32_t kw)
    {
        LocalTensor<T> tl = tapQ.AllocTensor<T>();
        uint64_t plane = (uint64_t)p.inH * p.inW;
        uint64_t src = ((uint64_t)n * p.cin + ci0) * plane + (uint64_t)(oy + kh) * p.inW + kw;
        uint32_t bytes = p.outW * sizeof(T);
        DataCopyExtParams cp{static_cast<uint16_t>(ciN), bytes,
                             static_cast<uint32_t>(plane * sizeof(T) - bytes),
                             static_cast<uint32_t>((p.outWAlign * sizeof(T) - ((bytes + 31) / 32 * 32)) / 32), 0};
        DataCopyPad(tl, xGm[src], cp, DataCopyPadExtParams<T>{false, 0, 0, static_cast<T>(0)});
        tapQ.EnQue(tl);
    }

    __aicore__ inline void Accumulate(uint32_t n, uint32_t oy, uint32_t co0, uint32_t coN)
    {
        const uint32_t owA = p.outWAlign;
        const uint32_t kk = p.ksz * p.ksz;
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> f = tapF32.Get<float>();
        for (uint32_t c = 0; c < coN; ++c) {
            Duplicate(acc[c * owA], cbGm.GetValue(co0 + c), owA);
        }
        PipeBarrier<PIPE_V>();

        for (uint32_t ci0 = 0; ci0 < p.cin; ci0 += p.ciChunk) {
            uint32_t ciN = p.cin - ci0 < p.ciChunk ? p.cin - ci0 : p.ciChunk;
            LoadTap(n, oy, ci0, ciN, 0, 0);
            for (uint32_t tap = 0; tap < kk; ++tap) {
                LocalTensor<T> tl = tapQ.DeQue<T>();
                if constexpr (std::is_same<T, float>::value) {
                    DataCopy(f, tl, ciN * owA);
                } else {
                    Cast(f, tl, RoundMode::CAST_NONE, ciN * owA);
                }
                tapQ.FreeTensor(tl);
                if (tap + 1 < kk) {
                    LoadTap(n, oy, ci0, ciN, (tap + 1) / p.ksz, (tap + 1) % p.ksz);   // overlap next tap
                }
                PipeBarrier<PIPE_V>();
                // weight [Cout, Cin, K, K]
                for (uint32_t c = 0; c < coN; ++c) {
                    uint64_t wb = ((uint64_t)(co0 + c) * p.cin + ci0) * kk + tap;
                    LocalTensor<float> dst = acc[c * owA];
                    for (uint32_t i = 0; i < ciN; ++i) {
                        Axpy(dst, f[i * owA], static_cast<float>(wGm.GetValue(wb + (uint64_t)i * kk)), owA);
                    }
                }
                PipeBarrier<PIPE_V>();
            }
        }
    }

    __aicore__ inline void Epilogue(uint32_t co0, uint32_t coN)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        for (uint32_t c = 0; c < coN; ++c) {
            LocalTensor<float> row = acc[c * p.outWAlign];
            CapShiftScale::Apply(row, p.cap, shGm.GetValue(co0 + c), p.scale, p.outWAlign);
        }
        PipeBarrier<PIPE_V>();
    }

    __aicore__ inline void Store(uint32_t n, uint32_t oy, uint32_t co0, uint32_t coN)
    {
        const uint32_t owA = p.outWAlign;
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<T> yl = outQ.AllocTensor<T>();
        if constexpr (std::is_same<T, float>::value) {
            DataCopy(yl, acc, coN * owA);
        } else {
            Cast(yl, acc, RoundMode::CAST_RINT, coN * owA);
        }
        outQ.EnQue(yl);
        yl = outQ.DeQue<T>();
        uint64_t plane = (uint64_t)p.outH * p.outW;
        uint32_t bytes = p.outW * sizeof(T);
        DataCopyExtParams cp{static_cast<uint16_t>(coN), bytes,
                             static_cast<uint32_t>((owA * sizeof(T) - (bytes + 31) / 32 * 32) / 32),
                             static_cast<uint32_t>((plane - p.outW) * sizeof(T)), 0};
        DataCopyPad(yGm[((uint64_t)n * p.cout + co0) * plane + (uint64_t)oy * p.outW], yl, cp);
        outQ.FreeTensor(yl);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> tapQ;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> tapF32, accBuf;
    GlobalTensor<T> xGm, wGm, yGm;
    GlobalTensor<float> cbGm, shGm;
    ConvCapShiftScaleTiling p;
    uint32_t rBeg = 0, rEnd = 0;
};

extern "C" __global__ __aicore__ void conv_cap_shift_scale_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR conv_bias,
                                                                  GM_ADDR shift, GM_ADDR y, GM_ADDR workspace,
                                                                  GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        ConvCapShiftScale<float> op;
        op.Init(x, weight, conv_bias, shift, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        ConvCapShiftScale<half> op;
        op.Init(x, weight, conv_bias, shift, y, td);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// y = (min(conv2d(x, w, b), cap) + shift[c]) * scale ; valid conv, stride 1
at::Tensor conv_cap_shift_scale_impl_npu(const at::Tensor &x, const at::Tensor &weight, const at::Tensor &conv_bias,
                                         const at::Tensor &shift, double cap, double scale)
{
    TORCH_CHECK(x.dim() == 4 && weight.dim() == 4, "expected NCHW input and OIHW weight");
    TORCH_CHECK(weight.size(1) == x.size(1), "input channel mismatch");
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.to(x.scalar_type()).contiguous();
    at::Tensor cb = conv_bias.to(at::kFloat).reshape({-1}).contiguous();
    at::Tensor sh = shift.to(at::kFloat).reshape({-1}).contiguous();   // (C,1,1) -> (C)
    at::Tensor y = at::empty({x.size(0), weight.size(0), x.size(2) - weight.size(2) + 1,
                              x.size(3) - weight.size(3) + 1}, x.options());
    EXEC_NPU_CMD(aclnnConvCapShiftScaleCustom, xc, wc, cb, sh, cap, scale, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_cap_shift_scale_custom", &conv_cap_shift_scale_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_cap_shift_scale_custom", &conv_cap_shift_scale_impl_npu,
          "conv2d -> min(constant) -> + bias -> * scaling_factor");
}
"""
