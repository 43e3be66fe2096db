project_json_src='''
[
    {
        "op": "RowSweepConv2dCustom",
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
            {"name": "dilation", "param_type": "optional", "type": "int", "default_value": "1"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RowSweepConv2dTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inC);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outC);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, kSize);
  TILING_DATA_FIELD_DEF(uint32_t, dilation);
  TILING_DATA_FIELD_DEF(uint32_t, ocBlock);
  TILING_DATA_FIELD_DEF(uint32_t, owTile);
  TILING_DATA_FIELD_DEF(uint32_t, owChunks);
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, totalUnits);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(RowSweepConv2dCustom, RowSweepConv2dTilingData)
}
"""

host_operator_src="""
#include "row_sweep_conv2d_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// Splits (oc, ow) so that the float accumulators, the weight block and the
// double-buffered row segments fit into UB together.
class RowSweepPlanner {
public:
    RowSweepPlanner(uint64_t ub, uint32_t typeSize) : ub_(ub - 8 * 1024), ts_(typeSize) {}

    void Plan(uint32_t oc, uint32_t ow, uint32_t taps)
    {
        owTile = Align(ow, 16);
        if (owTile > 2048) {
            owTile = 2048;
        }
        ocBlock = oc < 32 ? oc : 32;
        while (Need(ocBlock, owTile, taps) > ub_) {
            if (ocBlock > 4) {
                ocBlock /= 2;
            } else if (owTile > 64) {
                owTile = Align(owTile / 2, 16);
            } else {
                break;
            }
        }
        owChunks = (ow + owTile - 1) / owTile;
    }

    uint32_t ocBlock = 1;
    uint32_t owTile = 16;
    uint32_t owChunks = 1;

private:
    static uint32_t Align(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }
    uint64_t Need(uint32_t ob, uint32_t wt, uint32_t taps) const
    {
        uint64_t acc = (uint64_t)ob * wt * sizeof(float);
        uint64_t wts = (uint64_t)Align(ob * taps, 16) * (sizeof(float) + ts_);
        uint64_t seg = 2ULL * wt * ts_ + wt * sizeof(float);
        uint64_t out = 2ULL * wt * ts_;
        return acc + wts + seg + out;
    }
    uint64_t ub_;
    uint32_t ts_;
};

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    // x is already zero-padded by the caller; only dilation is applied here
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& ws = context->GetInputShape(1)->GetStorageShape();
    const int64_t* dilPtr = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    uint32_t dil = dilPtr == nullptr ? 1 : static_cast<uint32_t>(*dilPtr);

    uint32_t n = xs.GetDim(0), ic = xs.GetDim(1), ih = xs.GetDim(2), iw = xs.GetDim(3);
    uint32_t oc = ws.GetDim(0), k = ws.GetDim(2);
    uint32_t span = dil * (k - 1) + 1;
    if (ih < span || iw < span || ws.GetDim(1) != ic) {
        return ge::GRAPH_FAILED;
    }
    uint32_t oh = ih - span + 1, ow = iw - span + 1;

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    auto dtype = context->GetInputDesc(0)->GetDataType();
    RowSweepPlanner planner(ub, dtype == ge::DT_FLOAT16 ? 2 : 4);
    planner.Plan(oc, ow, ic * k * k);

    uint32_t ocBlocks = (oc + planner.ocBlock - 1) / planner.ocBlock;
    uint32_t totalUnits = ocBlocks * n * oh * planner.owChunks;
    uint32_t cores = platform.GetCoreNumAiv();
    uint32_t perCore = (totalUnits + cores - 1) / cores;

    RowSweepConv2dTilingData t;
    t.set_batch(n); t.set_inC(ic); t.set_inH(ih); t.set_inW(iw);
    t.set_outC(oc); t.set_outH(oh); t.set_outW(ow);
    t.set_kSize(k); t.set_dilation(dil);
    t.set_ocBlock(planner.ocBlock);
    t.set_owTile(planner.owTile);
    t.set_owChunks(planner.owChunks);
    t.set_unitsPerCore(perCore);
    t.set_totalUnits(totalUnits);

    context->SetTilingKey(dtype == ge::DT_FLOAT16 ? 1 : 0);
    context->SetBlockDim((totalUnits + perCore - 1) / perCore);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
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
    const int64_t* dilPtr = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    int64_t dil = dilPtr == nullptr ? 1 : *dilPtr;
    int64_t span = dil * (ws->GetDim(2) - 1) + 1;
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(4);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(0));
    ys->SetDim(2, xs->GetDim(2) - span + 1);
    ys->SetDim(3, xs->GetDim(3) - span + 1);
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
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("weight")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("dilation").AttrType(OPTIONAL).Int(1);

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

struct SweepShape {
    uint32_t n, ic, ih, iw, oc, oh, ow, k, dil;
    uint32_t ocBlock, owTile, owChunks, unitsPerCore, totalUnits;
};

// Widening copy used for the input segments, weights and outputs.
template <typename D, typename S>
__aicore__ inline void Convert(const LocalTensor<D>& dst, const LocalTensor<S>& src, uint32_t n)
{
    if constexpr (IsSameType<D, S>::value) {
        DataCopy(dst, src, n);
    } else if constexpr (IsSameType<D, float>::value) {
        Cast(dst, src, RoundMode::CAST_NONE, n);
    } else {
        Cast(dst, src, RoundMode::CAST_ROUND, n);
    }
}

template <typename T>
class RowSweepConv2d {
public:
    __aicore__ inline RowSweepConv2d() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, const SweepShape& shp)
    {
        sh = shp;
        taps = sh.ic * sh.k * sh.k;
        wBlockLen = (sh.ocBlock * taps + 15) / 16 * 16;
        xGm.SetGlobalBuffer((__gm__ T*)x);
        wGm.SetGlobalBuffer((__gm__ T*)w);
        yGm.SetGlobalBuffer((__gm__ T*)y);

        pipe.InitBuffer(segQue, BUFFER_NUM, sh.owTile * sizeof(T));
        pipe.InitBuffer(outQue, BUFFER_NUM, sh.owTile * sizeof(T));
        pipe.InitBuffer(segF32, sh.owTile * sizeof(float));
        pipe.InitBuffer(accF32, sh.ocBlock * sh.owTile * sizeof(float));
        pipe.InitBuffer(wRaw, wBlockLen * sizeof(T));
        pipe.InitBuffer(wF32, wBlockLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t begin = GetBlockIdx() * sh.unitsPerCore;
        uint32_t end = begin + sh.unitsPerCore < sh.totalUnits ? begin + sh.unitsPerCore : sh.totalUnits;
        int32_t loadedBlock = -1;
        for (uint32_t u = begin; u < end; ++u) {
            // unit = ((ocBlk * N + n) * OH + oh) * owChunks + wc; ocBlk outermost keeps weights resident
            uint32_t wc = u % sh.owChunks;
            uint32_t oh = (u / sh.owChunks) % sh.oh;
            uint32_t n = (u / (sh.owChunks * sh.oh)) % sh.n;
            uint32_t ob = u / (sh.owChunks * sh.oh * sh.n);
            uint32_t ocStart = ob * sh.ocBlock;
            uint32_t ocCnt = sh.oc - ocStart < sh.ocBlock ? sh.oc - ocStart : sh.ocBlock;
            if ((int32_t)ob != loadedBlock) {
                LoadWeights(ocStart, ocCnt);
                loadedBlock = ob;
            }
            uint32_t ow0 = wc * sh.owTile;
            uint32_t len = sh.ow - ow0 < sh.owTile ? sh.ow - ow0 : sh.owTile;
            Sweep(n, oh, ow0, len, ocCnt);
            Store(n, oh, ow0, len, ocStart, ocCnt);
        }
    }

private:
    __aicore__ inline void LoadWeights(uint32_t ocStart, uint32_t ocCnt)
    {
        LocalTensor<T> raw = wRaw.Get<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(ocCnt * taps * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(raw, wGm[(uint64_t)ocStart * taps], cp, pad);
        event_t e1 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(e1);
        WaitFlag<HardEvent::MTE2_V>(e1);
        Convert(wF32.Get<float>(), raw, wBlockLen);
        event_t e2 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e2);
        WaitFlag<HardEvent::V_S>(e2);
    }

    __aicore__ inline void Sweep(uint32_t n, uint32_t oh, uint32_t ow0, uint32_t len, uint32_t ocCnt)
    {
        LocalTensor<float> acc = accF32.Get<float>();
        LocalTensor<float> wl = wF32.Get<float>();
        LocalTensor<float> xf = segF32.Get<float>();
        Duplicate(acc, 0.0f, sh.ocBlock * sh.owTile);
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        for (uint32_t c = 0; c < sh.ic; ++c) {
            for (uint32_t kh = 0; kh < sh.k; ++kh) {
                uint64_t rowOff = (((uint64_t)n * sh.ic + c) * sh.ih + oh + kh * sh.dil) * sh.iw + ow0;
                for (uint32_t kw = 0; kw < sh.k; ++kw) {
                    // the segment for tap kw is the same input row shifted by kw * dil
                    LocalTensor<T> seg = segQue.AllocTensor<T>();
                    DataCopyPad(seg, xGm[rowOff + kw * sh.dil], cp, pad);
                    segQue.EnQue(seg);
                    seg = segQue.DeQue<T>();
                    Convert(xf, seg, sh.owTile);
                    segQue.FreeTensor(seg);
                    PipeBarrier<PIPE_V>();
                    uint32_t tap = (c * sh.k + kh) * sh.k + kw;
                    for (uint32_t o = 0; o < ocCnt; ++o) {
                        Axpy(acc[o * sh.owTile], xf, wl.GetValue(o * taps + tap), len);
                    }
                    PipeBarrier<PIPE_V>();
                }
            }
        }
    }

    __aicore__ inline void Store(uint32_t n, uint32_t oh, uint32_t ow0, uint32_t len, uint32_t ocStart, uint32_t ocCnt)
    {
        LocalTensor<float> acc = accF32.Get<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        for (uint32_t o = 0; o < ocCnt; ++o) {
            LocalTensor<T> yl = outQue.AllocTensor<T>();
            Convert(yl, acc[o * sh.owTile], sh.owTile);
            outQue.EnQue(yl);
            yl = outQue.DeQue<T>();
            uint64_t dst = (((uint64_t)n * sh.oc + ocStart + o) * sh.oh + oh) * sh.ow + ow0;
            DataCopyPad(yGm[dst], yl, cp);
            outQue.FreeTensor(yl);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> segQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQue;
    TBuf<TPosition::VECCALC> segF32, accF32, wRaw, wF32;
    GlobalTensor<T> xGm, wGm, yGm;
    SweepShape sh;
    uint32_t taps, wBlockLen;
};

extern "C" __global__ __aicore__ void row_sweep_conv2d_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR y,
                                                              GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    SweepShape shp{td.batch, td.inC, td.inH, td.inW, td.outC, td.outH, td.outW, td.kSize, td.dilation,
                   td.ocBlock, td.owTile, td.owChunks, td.unitsPerCore, td.totalUnits};
    if (TILING_KEY_IS(1)) {
        RowSweepConv2d<half> op;
        op.Init(x, weight, y, shp);
        op.Process();
    } else if (TILING_KEY_IS(0)) {
        RowSweepConv2d<float> op;
        op.Init(x, weight, y, shp);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// Conv2d (groups = 1, no bias). Padding is materialised here; stride > 1 is taken
// from the dense stride-1 result.
at::Tensor row_sweep_conv2d_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                     int64_t stride, int64_t padding, int64_t dilation)
{
    TORCH_CHECK(x.dim() == 4 && weight.dim() == 4, "expected NCHW input and OIHW weight");
    TORCH_CHECK(weight.size(1) == x.size(1), "grouped convolution is not supported");
    at::Tensor xin = padding > 0 ? at::constant_pad_nd(x, {padding, padding, padding, padding}, 0) : x;
    xin = xin.contiguous();
    at::Tensor w = weight.to(x.scalar_type()).contiguous();
    const int64_t span = dilation * (w.size(2) - 1) + 1;
    at::Tensor y = at::empty({x.size(0), w.size(0), xin.size(2) - span + 1, xin.size(3) - span + 1}, x.options());
    EXEC_NPU_CMD(aclnnRowSweepConv2dCustom, xin, w, dilation, y);
    if (stride > 1) {
        y = y.slice(2, 0, y.size(2), stride).slice(3, 0, y.size(3), stride).contiguous();
    }
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("row_sweep_conv2d_custom", &row_sweep_conv2d_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("row_sweep_conv2d_custom", &row_sweep_conv2d_impl_npu, "direct 2D convolution, row-sweep kernel",
          pybind11::arg("x"), pybind11::arg("weight"), pybind11::arg("stride") = 1,
          pybind11::arg("padding") = 0, pybind11::arg("dilation") = 1);
}
"""
