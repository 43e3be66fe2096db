project_json_src='''
[
    {
        "op": "FractionalStrideConv3dCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float16", "float"]
            },
            {
                "name": "weight",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float16", "float"]
            }
        ],
        "output_desc": [
            {
                "name": "y",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float16", "float"]
            }
        ],
        "attr": [
            {"name": "stride", "param_type": "optional", "type": "int", "default_value": "1"},
            {"name": "padding", "param_type": "optional", "type": "int", "default_value": "0"},
            {"name": "output_padding", "param_type": "optional", "type": "int", "default_value": "0"},
            {"name": "dilation", "param_type": "optional", "type": "int", "default_value": "1"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(FractionalStrideConv3dTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, din);
  TILING_DATA_FIELD_DEF(uint32_t, hin);
  TILING_DATA_FIELD_DEF(uint32_t, win);
  TILING_DATA_FIELD_DEF(uint32_t, dout);
  TILING_DATA_FIELD_DEF(uint32_t, hout);
  TILING_DATA_FIELD_DEF(uint32_t, wout);
  TILING_DATA_FIELD_DEF(uint32_t, woutAlign);
  TILING_DATA_FIELD_DEF(uint32_t, ksize);
  TILING_DATA_FIELD_DEF(int32_t, stride);
  TILING_DATA_FIELD_DEF(int32_t, pad);
  TILING_DATA_FIELD_DEF(int32_t, dil);
  TILING_DATA_FIELD_DEF(uint32_t, coBlock);
  TILING_DATA_FIELD_DEF(uint32_t, coBlockNum);
  TILING_DATA_FIELD_DEF(uint32_t, totalRows);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(FractionalStrideConv3dCustom, FractionalStrideConv3dTilingData)
}
"""

host_operator_src="""
#include "fractional_stride_conv3d_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t UB_ACC_BUDGET = 64 * 1024;   // bytes for the fp32 row accumulators

struct DeconvGeom {
    int64_t n, ci, co, d, h, w, k;
    int64_t stride, pad, outPad, dil;
    int64_t OutLen(int64_t in) const { return (in - 1) * stride - 2 * pad + dil * (k - 1) + outPad + 1; }
};

static uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& ws = context->GetInputShape(1)->GetStorageShape();
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    DeconvGeom g;
    g.n = xs.GetDim(0); g.ci = xs.GetDim(1); g.d = xs.GetDim(2); g.h = xs.GetDim(3); g.w = xs.GetDim(4);
    g.co = ws.GetDim(1); g.k = ws.GetDim(2);
    g.stride = *attrs->GetAttrPointer<int64_t>(0);
    g.pad = *attrs->GetAttrPointer<int64_t>(1);
    g.outPad = *attrs->GetAttrPointer<int64_t>(2);
    g.dil = *attrs->GetAttrPointer<int64_t>(3);

    uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    // left zero-fill of a shifted row (shift = kw*dil - pad) is done by DataCopyPad, max one 32B block
    if (static_cast<int64_t>((g.dil * (g.k - 1) - g.pad) * typeSize) > 32 && g.stride == 1) {
        return ge::GRAPH_FAILED;
    }

    uint32_t dOut = g.OutLen(g.d), hOut = g.OutLen(g.h), wOut = g.OutLen(g.w);
    uint32_t wAlign = AlignUp(wOut, 32 / typeSize);
    uint32_t coBlock = UB_ACC_BUDGET / (wAlign * sizeof(float));
    if (coBlock == 0) coBlock = 1;
    if (coBlock > g.co) coBlock = g.co;
    uint32_t coBlockNum = (g.co + coBlock - 1) / coBlock;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = plat.GetCoreNumAiv();
    uint32_t totalRows = g.n * dOut * hOut * coBlockNum;
    uint32_t rowsPerCore = (totalRows + coreNum - 1) / coreNum;
    uint32_t usedCores = (totalRows + rowsPerCore - 1) / rowsPerCore;

    FractionalStrideConv3dTilingData t;
    t.set_batch(g.n); t.set_cin(g.ci); t.set_cout(g.co);
    t.set_din(g.d); t.set_hin(g.h); t.set_win(g.w);
    t.set_dout(dOut); t.set_hout(hOut); t.set_wout(wOut); t.set_woutAlign(wAlign);
    t.set_ksize(g.k); t.set_stride(g.stride); t.set_pad(g.pad); t.set_dil(g.dil);
    t.set_coBlock(coBlock); t.set_coBlockNum(coBlockNum);
    t.set_totalRows(totalRows); t.set_rowsPerCore(rowsPerCore);

    context->SetBlockDim(usedCores);
    context->SetTilingKey(typeSize == 2 ? 1 : 0);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    size_t* ws0 = context->GetWorkspaceSizes(1);
    ws0[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    const gert::Shape* ws = context->GetInputShape(1);
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    int64_t s = *attrs->GetAttrPointer<int64_t>(0);
    int64_t p = *attrs->GetAttrPointer<int64_t>(1);
    int64_t op = *attrs->GetAttrPointer<int64_t>(2);
    int64_t dl = *attrs->GetAttrPointer<int64_t>(3);
    int64_t k = ws->GetDim(2);
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(5);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(1));
    for (int i = 2; i < 5; ++i) {
        ys->SetDim(i, (xs->GetDim(i) - 1) * s - 2 * p + dl * (k - 1) + op + 1);
    }
    return GRAPH_SUCCESS;
}
static graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class FractionalStrideConv3dCustom : public OpDef {
public:
    explicit FractionalStrideConv3dCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("padding").AttrType(OPTIONAL).Int(0);
        this->Attr("output_padding").AttrType(OPTIONAL).Int(0);
        this->Attr("dilation").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(FractionalStrideConv3dCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// Contiguous integer division helpers for the "which input voxel feeds this output" test.
__aicore__ inline bool MapBack(int32_t o, int32_t k, int32_t stride, int32_t pad, int32_t dil,
                               int32_t inLen, int32_t& i)
{
    int32_t t = o + pad - k * dil;
    if (t < 0 || (t % stride) != 0) return false;
    i = t / stride;
    return i < inLen;
}

// Gather formulation of ConvTranspose3d: every task is one output row y[n, co0:co0+cb, od, oh, :].
// For stride 1 each (ci, kd, kh, kw) tap contributes a shifted input row, loaded shifted straight
// from GM (DataCopyPad left fill) so every vector op starts 32B aligned.
template <typename T>
class DeconvRowEngine {
public:
    __aicore__ inline DeconvRowEngine() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, const FractionalStrideConv3dTilingData& td)
    {
        t_ = td;
        xGm.SetGlobalBuffer((__gm__ T*)x);
        wGm.SetGlobalBuffer((__gm__ T*)w);
        yGm.SetGlobalBuffer((__gm__ T*)y);
        pipe.InitBuffer(tapQue, BUFFER_NUM, t_.woutAlign * sizeof(T));
        pipe.InitBuffer(outQue, BUFFER_NUM, t_.woutAlign * sizeof(T));
        pipe.InitBuffer(accBuf, t_.coBlock * t_.woutAlign * sizeof(float));
        pipe.InitBuffer(tapF32Buf, t_.woutAlign * sizeof(float));
        blkElems = 32 / sizeof(T);
    }

    __aicore__ inline void Process()
    {
        uint32_t first = AscendC::GetBlockIdx() * t_.rowsPerCore;
        uint32_t last = first + t_.rowsPerCore;
        if (last > t_.totalRows) last = t_.totalRows;
        for (uint32_t r = first; r < last; ++r) {
            // row index layout: ((n * dout + od) * hout + oh) * coBlockNum + cb
            uint32_t cb = r % t_.coBlockNum;
            uint32_t rest = r / t_.coBlockNum;
            uint32_t oh = rest % t_.hout; rest /= t_.hout;
            uint32_t od = rest % t_.dout;
            uint32_t n = rest / t_.dout;
            ComputeRow(n, od, oh, cb);
        }
    }

private:
    __aicore__ inline void ComputeRow(uint32_t n, uint32_t od, uint32_t oh, uint32_t cb)
    {
        uint32_t co0 = cb * t_.coBlock;
        uint32_t coCnt = t_.cout - co0 < t_.coBlock ? t_.cout - co0 : t_.coBlock;
        AscendC::LocalTensor<float> acc = accBuf.Get<float>();
        AscendC::Duplicate(acc, 0.0f, coCnt * t_.woutAlign);

        int32_t K = t_.ksize;
        for (uint32_t ci = 0; ci < t_.cin; ++ci) {
            for (int32_t kd = 0; kd < K; ++kd) {
                int32_t id;
                if (!MapBack(od, kd, t_.stride, t_.pad, t_.dil, t_.din, id)) continue;
                for (int32_t kh = 0; kh < K; ++kh) {
                    int32_t ih;
                    if (!MapBack(oh, kh, t_.stride, t_.pad, t_.dil, t_.hin, ih)) continue;
                    uint64_t rowOff = ((((uint64_t)n * t_.cin + ci) * t_.din + id) * t_.hin + ih) * t_.win;
                    for (int32_t kw = 0; kw < K; ++kw) {
                        uint64_t wBase = ((((uint64_t)ci * t_.cout + co0) * K + kd) * K + kh) * K + kw;
                        if (t_.stride == 1) {
                            AccumulateShifted(acc, rowOff, kw, wBase, coCnt);
                        } else {
                            AccumulateStrided(acc, rowOff, kw, wBase, coCnt);
                        }
                    }
                }
            }
        }
        WriteRow(acc, n, od, oh, co0, coCnt);
    }

    // tap[ow] = x[row, ow - shift], zero where out of range; shift = kw*dil - pad
    __aicore__ inline void AccumulateShifted(AscendC::LocalTensor<float>& acc, uint64_t rowOff, int32_t kw,
                                             uint64_t wBase, uint32_t coCnt)
    {
        int32_t shift = kw * t_.dil - t_.pad;
        int32_t lo = shift > 0 ? shift : 0;
        int32_t iwStart = shift < 0 ? -shift : 0;
        int32_t cnt = (int32_t)t_.win - iwStart;
        if ((int32_t)t_.wout - lo < cnt) cnt = (int32_t)t_.wout - lo;
        if (cnt <= 0) return;

        AscendC::LocalTensor<T> tap = tapQue.AllocTensor<T>();
        uint32_t filled = lo + cnt;
        uint32_t filledAlign = (filled + blkElems - 1) / blkElems * blkElems;
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> pp{true, static_cast<uint8_t>(lo),
                                            static_cast<uint8_t>(filledAlign - filled), static_cast<T>(0)};
        AscendC::DataCopyPad(tap, xGm[rowOff + iwStart], cp, pp);
        tapQue.EnQue(tap);

        tap = tapQue.DeQue<T>();
        if (filledAlign < t_.woutAlign) {
            AscendC::Duplicate(tap[filledAlign], static_cast<T>(0), t_.woutAlign - filledAlign);
        }
        AscendC::LocalTensor<float> src = ToF32(tap);
        for (uint32_t c = 0; c < coCnt; ++c) {
            float wv = static_cast<float>(wGm.GetValue(wBase + (uint64_t)c * t_.ksize * t_.ksize * t_.ksize));
            AscendC::Axpy(acc[c * t_.woutAlign], src, wv, t_.woutAlign);
        }
        tapQue.FreeTensor(tap);
    }

    // stride > 1: scatter each input column into its output column (scalar path)
    __aicore__ inline void AccumulateStrided(AscendC::LocalTensor<float>& acc, uint64_t rowOff, int32_t kw,
                                             uint64_t wBase, uint32_t coCnt)
    {
        AscendC::LocalTensor<T> tap = tapQue.AllocTensor<T>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(t_.win * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> pp{false, 0, 0, static_cast<T>(0)};
        AscendC::DataCopyPad(tap, xGm[rowOff], cp, pp);
        tapQue.EnQue(tap);
        tap = tapQue.DeQue<T>();
        AscendC::LocalTensor<float> src = ToF32(tap);
        AscendC::PipeBarrier<PIPE_V>();
        for (uint32_t c = 0; c < coCnt; ++c) {
            float wv = static_cast<float>(wGm.GetValue(wBase + (uint64_t)c * t_.ksize * t_.ksize * t_.ksize));
            for (int32_t iw = 0; iw < (int32_t)t_.win; ++iw) {
                int32_t ow = iw * t_.stride - t_.pad + kw * t_.dil;
                if (ow < 0 || ow >= (int32_t)t_.wout) continue;
                uint32_t pos = c * t_.woutAlign + ow;
                acc.SetValue(pos, acc.GetValue(pos) + wv * src.GetValue(iw));
            }
        }
        tapQue.FreeTensor(tap);
    }

    __aicore__ inline AscendC::LocalTensor<float> ToF32(AscendC::LocalTensor<T>& in)
    {
        if constexpr (AscendC::IsSameType<T, float>::value) {
            return in;
        } else {
            AscendC::LocalTensor<float> f = tapF32Buf.Get<float>();
            AscendC::Cast(f, in, AscendC::RoundMode::CAST_NONE, t_.woutAlign);
            return f;
        }
    }

    __aicore__ inline void WriteRow(AscendC::LocalTensor<float>& acc, uint32_t n, uint32_t od, uint32_t oh,
                                    uint32_t co0, uint32_t coCnt)
    {
        for (uint32_t c = 0; c < coCnt; ++c) {
            AscendC::LocalTensor<T> o = outQue.AllocTensor<T>();
            if constexpr (AscendC::IsSameType<T, float>::value) {
                AscendC::Adds(o, acc[c * t_.woutAlign], 0.0f, t_.woutAlign);
            } else {
                AscendC::Cast(o, acc[c * t_.woutAlign], AscendC::RoundMode::CAST_ROUND, t_.woutAlign);
            }
            outQue.EnQue(o);
            o = outQue.DeQue<T>();
            uint64_t yOff = ((((uint64_t)n * t_.cout + co0 + c) * t_.dout + od) * t_.hout + oh) * t_.wout;
            AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(t_.wout * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPad(yGm[yOff], o, cp);
            outQue.FreeTensor(o);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> tapQue;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> accBuf, tapF32Buf;
    AscendC::GlobalTensor<T> xGm, wGm, yGm;
    FractionalStrideConv3dTilingData t_;
    uint32_t blkElems;
};

extern "C" __global__ __aicore__ void fractional_stride_conv3d_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR y,
                                                                      GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        DeconvRowEngine<float> op;
        op.Init(x, weight, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        DeconvRowEngine<half> op;
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

at::Tensor fractional_stride_conv3d_npu(const at::Tensor& x, const at::Tensor& weight, int64_t stride,
                                        int64_t padding, int64_t output_padding, int64_t dilation)
{
    TORCH_CHECK(x.dim() == 5 && weight.dim() == 5, "expected NCDHW input and (Cin, Cout, K, K, K) weight");
    int64_t k = weight.size(2);
    auto outLen = [&](int64_t in) { return (in - 1) * stride - 2 * padding + dilation * (k - 1) + output_padding + 1; };
    at::Tensor y = at::empty({x.size(0), weight.size(1), outLen(x.size(2)), outLen(x.size(3)), outLen(x.size(4))},
                             x.options());
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    EXEC_NPU_CMD(aclnnFractionalStrideConv3dCustom, xc, wc, stride, padding, output_padding, dilation, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("fractional_stride_conv3d_custom", &fractional_stride_conv3d_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("fractional_stride_conv3d_custom", &fractional_stride_conv3d_npu, "ConvTranspose3d (gather form)",
          pybind11::arg("x"), pybind11::arg("weight"), pybind11::arg("stride") = 1, pybind11::arg("padding") = 0,
          pybind11::arg("output_padding") = 0, pybind11::arg("dilation") = 1);
}
"""
