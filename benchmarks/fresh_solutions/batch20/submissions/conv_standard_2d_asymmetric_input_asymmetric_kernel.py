project_json_src='''
[
    {
        "op": "RowSweepConv2dCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]},
            {"name": "weight", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]}
        ],
        "attr": [
            {"name": "dilation_h", "param_type": "optional", "type": "int", "default_value": "1"},
            {"name": "dilation_w", "param_type": "optional", "type": "int", "default_value": "1"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RowSweepConv2dTiling)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inC);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outC);
  TILING_DATA_FIELD_DEF(uint32_t, kH);
  TILING_DATA_FIELD_DEF(uint32_t, kW);
  TILING_DATA_FIELD_DEF(uint32_t, dilH);
  TILING_DATA_FIELD_DEF(uint32_t, dilW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, ocBlock);     // output channels accumulated together
  TILING_DATA_FIELD_DEF(uint32_t, ocBlockNum);
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore); // unit = (n, oh, ocBlock) output row group
  TILING_DATA_FIELD_DEF(uint32_t, totalUnits);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(RowSweepConv2dCustom, RowSweepConv2dTiling)
}
"""

host_operator_src="""
#include "row_sweep_conv2d_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static inline uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

// Largest output-channel block whose accumulators + staging fit the UB budget.
static uint32_t ChooseOcBlock(uint32_t outC, uint32_t outW, uint32_t kW, uint32_t kH, uint32_t typeSize)
{
    constexpr uint32_t UB_BUDGET = 176 * 1024;
    uint32_t owF = AlignUp(outW, 8);
    uint32_t owT = AlignUp(outW * typeSize, 32) / typeSize;
    uint32_t rowsBytes = 2 * kW * owT * typeSize + kW * owF * sizeof(float);
    uint32_t ob = outC < 32 ? outC : 32;
    while (ob > 1) {
        uint32_t need = rowsBytes + ob * owF * sizeof(float) + 2 * ob * owT * typeSize +
                        AlignUp(ob * kH * kW * typeSize, 32);
        if (need <= UB_BUDGET) {
            break;
        }
        ob >>= 1;
    }
    return ob;
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    RowSweepConv2dTiling tiling;
    const gert::Shape& xs = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& ws = context->GetInputShape(1)->GetOriginShape();  // [IC, OC, KH, KW]
    uint32_t batch = xs.GetDim(0), inC = xs.GetDim(1), inH = xs.GetDim(2), inW = xs.GetDim(3);
    uint32_t outC = ws.GetDim(1), kH = ws.GetDim(2), kW = ws.GetDim(3);
    auto attrs = context->GetAttrs();
    uint32_t dilH = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    uint32_t dilW = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(1));
    uint32_t outH = inH - dilH * (kH - 1);
    uint32_t outW = inW - dilW * (kW - 1);
    uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;

    uint32_t ob = ChooseOcBlock(outC, outW, kW, kH, typeSize);
    uint32_t obNum = (outC + ob - 1) / ob;
    uint32_t total = batch * outH * obNum;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint32_t perCore = (total + coreNum - 1) / coreNum;
    uint32_t blockDim = (total + perCore - 1) / perCore;

    tiling.set_batch(batch);
    tiling.set_inC(inC);
    tiling.set_inH(inH);
    tiling.set_inW(inW);
    tiling.set_outC(outC);
    tiling.set_kH(kH);
    tiling.set_kW(kW);
    tiling.set_dilH(dilH);
    tiling.set_dilW(dilW);
    tiling.set_outH(outH);
    tiling.set_outW(outW);
    tiling.set_ocBlock(ob);
    tiling.set_ocBlockNum(obNum);
    tiling.set_unitsPerCore(perCore);
    tiling.set_totalUnits(total);

    context->SetBlockDim(blockDim);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
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
    auto attrs = context->GetAttrs();
    int64_t dh = *attrs->GetAttrPointer<int64_t>(0);
    int64_t dw = *attrs->GetAttrPointer<int64_t>(1);
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(4);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(1));
    ys->SetDim(2, xs->GetDim(2) - dh * (ws->GetDim(2) - 1));
    ys->SetDim(3, xs->GetDim(3) - dw * (ws->GetDim(3) - 1));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class RowSweepConv2dCustom : public OpDef {
public:
    explicit RowSweepConv2dCustom(const char* name) : OpDef(name)
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
        this->Attr("dilation_h").AttrType(OPTIONAL).Int(1);
        this->Attr("dilation_w").AttrType(OPTIONAL).Int(1);
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(RowSweepConv2dCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

__aicore__ inline uint32_t AlignElems(uint32_t n, uint32_t typeSize)
{
    return ((n * typeSize + 31) / 32) * 32 / typeSize;
}

template <typename T>
__aicore__ inline float ScalarToFloat(T v)
{
    return static_cast<float>(v);
}

// Stride-1 valid convolution. One unit produces ocBlock output rows y[n, oc0:oc0+ob, oh, :].
// For every (ic, kh) the kW horizontally shifted input rows are staged in UB, then each
// output channel of the block accumulates kW Axpy updates from them.
template <typename T>
class RowSweepConv2d {
public:
    __aicore__ inline RowSweepConv2d() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, const RowSweepConv2dTiling& t)
    {
        tl = t;
        owF = AlignElems(tl.outW, sizeof(float));
        owT = AlignElems(tl.outW, sizeof(T));
        taps = tl.kH * tl.kW;

        xGm.SetGlobalBuffer((__gm__ T*)x, (uint64_t)tl.batch * tl.inC * tl.inH * tl.inW);
        wGm.SetGlobalBuffer((__gm__ T*)w, (uint64_t)tl.inC * tl.outC * taps);
        yGm.SetGlobalBuffer((__gm__ T*)y, (uint64_t)tl.batch * tl.outC * tl.outH * tl.outW);

        pipe.InitBuffer(rowQue, BUFFER_NUM, tl.kW * owT * sizeof(T));
        pipe.InitBuffer(outQue, BUFFER_NUM, tl.ocBlock * owT * sizeof(T));
        pipe.InitBuffer(rowF32, tl.kW * owF * sizeof(float));
        pipe.InitBuffer(accBuf, tl.ocBlock * owF * sizeof(float));
        pipe.InitBuffer(wBuf, AlignElems(tl.ocBlock * taps, sizeof(T)) * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        uint32_t first = GetBlockIdx() * tl.unitsPerCore;
        uint32_t last = first + tl.unitsPerCore;
        if (last > tl.totalUnits) {
            last = tl.totalUnits;
        }
        for (uint32_t u = first; u < last; ++u) {
            uint32_t ocb = u % tl.ocBlockNum;
            uint32_t rest = u / tl.ocBlockNum;
            uint32_t oh = rest % tl.outH;
            uint32_t n = rest / tl.outH;
            uint32_t oc0 = ocb * tl.ocBlock;
            uint32_t ob = (oc0 + tl.ocBlock <= tl.outC) ? tl.ocBlock : (tl.outC - oc0);
            ComputeUnit(n, oh, oc0, ob);
        }
    }

private:
    __aicore__ inline void LoadWeights(uint32_t ic, uint32_t oc0, uint32_t ob)
    {
        LocalTensor<T> wl = wBuf.Get<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(ob * taps * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(wl, wGm[((uint64_t)ic * tl.outC + oc0) * taps], cp, pad);
        // weights are consumed as scalars
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(ev);
        WaitFlag<HardEvent::MTE2_S>(ev);
    }

    __aicore__ inline void StageRows(uint32_t n, uint32_t ic, uint32_t ih)
    {
        LocalTensor<T> rows = rowQue.AllocTensor<T>();
        uint64_t base = (((uint64_t)n * tl.inC + ic) * tl.inH + ih) * tl.inW;
        DataCopyExtParams cp{1, static_cast<uint32_t>(tl.outW * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        for (uint32_t kw = 0; kw < tl.kW; ++kw) {
            DataCopyPad(rows[kw * owT], xGm[base + kw * tl.dilW], cp, pad);
        }
        rowQue.EnQue(rows);
    }

    __aicore__ inline void ComputeUnit(uint32_t n, uint32_t oh, uint32_t oc0, uint32_t ob)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> rf = rowF32.Get<float>();
        LocalTensor<T> wl = wBuf.Get<T>();
        Duplicate(acc, 0.0f, ob * owF);

        for (uint32_t ic = 0; ic < tl.inC; ++ic) {
            LoadWeights(ic, oc0, ob);
            for (uint32_t kh = 0; kh < tl.kH; ++kh) {
                StageRows(n, ic, oh + kh * tl.dilH);
                LocalTensor<T> rows = rowQue.DeQue<T>();
                for (uint32_t kw = 0; kw < tl.kW; ++kw) {
                    if constexpr (IsSameType<T, float>::value) {
                        Adds(rf[kw * owF], rows[kw * owT], 0.0f, tl.outW);
                    } else {
                        Cast(rf[kw * owF], rows[kw * owT], RoundMode::CAST_NONE, tl.outW);
                    }
                }
                rowQue.FreeTensor(rows);
                for (uint32_t o = 0; o < ob; ++o) {
                    uint32_t wOff = o * taps + kh * tl.kW;
                    for (uint32_t kw = 0; kw < tl.kW; ++kw) {
                        float wv = ScalarToFloat<T>(wl.GetValue(wOff + kw));
                        Axpy(acc[o * owF], rf[kw * owF], wv, tl.outW);
                    }
                }
            }
            // next weight load overwrites wBuf; vector side no longer needs it (scalars are immediates)
            PipeBarrier<PIPE_V>();
        }
        WriteRows(n, oh, oc0, ob, acc);
    }

    __aicore__ inline void WriteRows(uint32_t n, uint32_t oh, uint32_t oc0, uint32_t ob, const LocalTensor<float>& acc)
    {
        LocalTensor<T> out = outQue.AllocTensor<T>();
        for (uint32_t o = 0; o < ob; ++o) {
            if constexpr (IsSameType<T, float>::value) {
                Adds(out[o * owT], acc[o * owF], 0.0f, tl.outW);
            } else {
                Cast(out[o * owT], acc[o * owF], RoundMode::CAST_ROUND, tl.outW);
            }
        }
        outQue.EnQue(out);
        out = outQue.DeQue<T>();
        uint64_t plane = (uint64_t)tl.outH * tl.outW;
        uint64_t dst = ((uint64_t)n * tl.outC + oc0) * plane + (uint64_t)oh * tl.outW;
        // ob rows, one per output channel, separated by a full output plane in GM
        DataCopyExtParams cp{static_cast<uint16_t>(ob), static_cast<uint32_t>(tl.outW * sizeof(T)), 0,
                             static_cast<uint32_t>((plane - tl.outW) * sizeof(T)), 0};
        DataCopyPad(yGm[dst], out, cp);
        outQue.FreeTensor(out);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> rowQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQue;
    TBuf<QuePosition::VECCALC> rowF32, accBuf, wBuf;
    GlobalTensor<T> xGm, wGm, yGm;
    RowSweepConv2dTiling tl;
    uint32_t owF, owT, taps;
};

extern "C" __global__ __aicore__ void row_sweep_conv2d_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR y,
                                                              GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    RowSweepConv2d<DTYPE_X> op;
    op.Init(x, weight, y, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// Conv2d without bias, stride 1. Zero padding is applied here so the kernel only sees a
// valid convolution; the weight is re-laid out as [IC, OC, KH, KW] so one input channel's
// taps for a block of output channels are contiguous.
at::Tensor row_sweep_conv2d_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                     int64_t padH, int64_t padW, int64_t dilH, int64_t dilW)
{
    at::Tensor xin = x;
    if (padH > 0 || padW > 0) {
        xin = at::constant_pad_nd(x, {padW, padW, padH, padH}, 0);
    }
    xin = xin.contiguous();
    at::Tensor wt = weight.to(xin.scalar_type()).permute({1, 0, 2, 3}).contiguous();
    int64_t outH = xin.size(2) - dilH * (weight.size(2) - 1);
    int64_t outW = xin.size(3) - dilW * (weight.size(3) - 1);
    at::Tensor y = at::empty({xin.size(0), weight.size(0), outH, outW}, xin.options());
    EXEC_NPU_CMD(aclnnRowSweepConv2dCustom, xin, wt, dilH, dilW, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("row_sweep_conv2d_custom", &row_sweep_conv2d_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("row_sweep_conv2d_custom", &row_sweep_conv2d_impl_npu, "stride-1 conv2d, row sweep",
          pybind11::arg("x"), pybind11::arg("weight"), pybind11::arg("pad_h") = 0, pybind11::arg("pad_w") = 0,
          pybind11::arg("dil_h") = 1, pybind11::arg("dil_w") = 1);
}
"""
