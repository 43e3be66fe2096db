project_json_src='''
[
    {
        "op": "WideRowFullConv3dCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x_padded",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float16", "float"]
            },
            {
                "name": "weight_flipped",
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
            {"name": "out_w", "param_type": "required", "type": "int"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(WideRowFullConv3dTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, depthIn);
  TILING_DATA_FIELD_DEF(uint32_t, heightIn);
  TILING_DATA_FIELD_DEF(uint32_t, pitch);
  TILING_DATA_FIELD_DEF(uint32_t, depthOut);
  TILING_DATA_FIELD_DEF(uint32_t, heightOut);
  TILING_DATA_FIELD_DEF(uint32_t, widthOut);
  TILING_DATA_FIELD_DEF(uint32_t, ksize);
  TILING_DATA_FIELD_DEF(uint32_t, coutBlock);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);
  TILING_DATA_FIELD_DEF(uint32_t, rowTiles);
  TILING_DATA_FIELD_DEF(uint32_t, workPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, workTotal);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(WideRowFullConv3dCustom, WideRowFullConv3dTilingData)
}
"""

host_operator_src="""
#include "wide_row_full_conv3d_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// UB bytes needed for a (coutBlock x rows*pitch) float accumulator plus weights and segments
static uint64_t UbNeed(uint32_t cb, uint32_t rows, uint32_t pitch, uint32_t taps, uint32_t ts)
{
    uint64_t area = (uint64_t)rows * pitch;
    uint64_t wlen = ((uint64_t)cb * taps + 15) / 16 * 16;
    return cb * area * 4 + wlen * (4 + ts) + area * (2 * ts + 4) + 2 * area * ts;
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& ws = context->GetInputShape(1)->GetStorageShape();
    int64_t outW = *context->GetAttrs()->GetAttrPointer<int64_t>(0);

    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1), dp = xs.GetDim(2), hp = xs.GetDim(3), pitch = xs.GetDim(4);
    uint32_t cout = ws.GetDim(0), k = ws.GetDim(2);
    // pitch must keep every wide row on a 32B boundary for the strided store
    if (pitch % 16 != 0 || dp < k || hp < k || static_cast<uint32_t>(outW) + k - 1 > pitch) {
        return ge::GRAPH_FAILED;
    }
    uint32_t dOut = dp - k + 1, hOut = hp - k + 1;
    uint32_t taps = cin * k * k * k;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    ub -= 8 * 1024;
    auto dtype = context->GetInputDesc(0)->GetDataType();
    uint32_t ts = dtype == ge::DT_FLOAT16 ? 2 : 4;

    uint32_t cb = cout < 16 ? cout : 16;
    uint32_t rows = hOut < 8 ? hOut : 8;
    while (UbNeed(cb, rows, pitch, taps, ts) > ub) {
        // weights dominate for wide Cin: shrink the cout block first
        if (cb > 4) {
            cb = cb / 2;
        } else if (rows > 1) {
            rows = rows / 2;
        } else if (cb > 1) {
            cb = cb / 2;
        } else {
            return ge::GRAPH_FAILED;
        }
    }
    uint32_t rowTiles = CeilDiv(hOut, rows);
    uint32_t total = CeilDiv(cout, cb) * n * dOut * rowTiles;
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t per = CeilDiv(total, cores);

    WideRowFullConv3dTilingData td;
    td.set_batch(n); td.set_cin(cin); td.set_cout(cout);
    td.set_depthIn(dp); td.set_heightIn(hp); td.set_pitch(pitch);
    td.set_depthOut(dOut); td.set_heightOut(hOut); td.set_widthOut(static_cast<uint32_t>(outW));
    td.set_ksize(k); td.set_coutBlock(cb); td.set_rowsPerTile(rows); td.set_rowTiles(rowTiles);
    td.set_workPerCore(per); td.set_workTotal(total);

    context->SetTilingKey(dtype == ge::DT_FLOAT16 ? 1 : 0);
    context->SetBlockDim(CeilDiv(total, per));
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
    int64_t outW = *context->GetAttrs()->GetAttrPointer<int64_t>(0);
    int64_t k = ws->GetDim(2);
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(5);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(0));
    ys->SetDim(2, xs->GetDim(2) - k + 1);
    ys->SetDim(3, xs->GetDim(3) - k + 1);
    ys->SetDim(4, outW);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class WideRowFullConv3dCustom : public OpDef {
public:
    explicit WideRowFullConv3dCustom(const char* name) : OpDef(name)
    {
        this->Input("x_padded")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("weight_flipped")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("out_w").Int();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(WideRowFullConv3dCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

struct WideConvCfg {
    uint32_t n, cin, cout, dIn, hIn, pitch, dOut, hOut, wOut, k;
    uint32_t coutBlock, rows, rowTiles, perCore, total;
};

// Output rows are computed "wide": each row spans the full input pitch, so one tap
// is a single flat axpy over rows*pitch elements; columns >= wOut are dropped on store.
template <typename T>
class WideRowFullConv3d {
public:
    __aicore__ inline WideRowFullConv3d() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, const WideConvCfg& c)
    {
        cfg = c;
        k3 = cfg.k * cfg.k * cfg.k;
        taps = cfg.cin * k3;
        area = cfg.rows * cfg.pitch;
        wLen = (cfg.coutBlock * taps + 15) / 16 * 16;

        xGm.SetGlobalBuffer((__gm__ T*)x);
        wGm.SetGlobalBuffer((__gm__ T*)w);
        yGm.SetGlobalBuffer((__gm__ T*)y);
        pipe.InitBuffer(xQue, BUFFER_NUM, area * sizeof(T));
        pipe.InitBuffer(yQue, BUFFER_NUM, area * sizeof(T));
        pipe.InitBuffer(xCalc, area * sizeof(float));
        pipe.InitBuffer(accCalc, cfg.coutBlock * area * sizeof(float));
        pipe.InitBuffer(wStage, wLen * sizeof(T));
        pipe.InitBuffer(wCalc, wLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t lo = GetBlockIdx() * cfg.perCore;
        uint32_t hi = lo + cfg.perCore < cfg.total ? lo + cfg.perCore : cfg.total;
        int32_t haveBlock = -1;
        for (uint32_t job = lo; job < hi; ++job) {
            uint32_t rt = job % cfg.rowTiles;
            uint32_t od = (job / cfg.rowTiles) % cfg.dOut;
            uint32_t b = (job / (cfg.rowTiles * cfg.dOut)) % cfg.n;
            uint32_t cbIdx = job / (cfg.rowTiles * cfg.dOut * cfg.n);
            uint32_t co0 = cbIdx * cfg.coutBlock;
            uint32_t coCnt = cfg.cout - co0 < cfg.coutBlock ? cfg.cout - co0 : cfg.coutBlock;
            if ((int32_t)cbIdx != haveBlock) {
                FetchWeights(co0, coCnt);
                haveBlock = cbIdx;
            }
            uint32_t oh0 = rt * cfg.rows;
            uint32_t rowCnt = cfg.hOut - oh0 < cfg.rows ? cfg.hOut - oh0 : cfg.rows;
            Accumulate(b, od, oh0, rowCnt, coCnt);
            Emit(b, od, oh0, rowCnt, co0, coCnt);
        }
    }

private:
    __aicore__ inline void FetchWeights(uint32_t co0, uint32_t coCnt)
    {
        LocalTensor<T> st = wStage.Get<T>();
        LocalTensor<float> wf = wCalc.Get<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(coCnt * taps * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> np{false, 0, 0, 0};
        DataCopyPad(st, wGm[(uint64_t)co0 * taps], cp, np);
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(ev);
        WaitFlag<HardEvent::MTE2_V>(ev);
        if constexpr (IsSameType<T, float>::value) {
            DataCopy(wf, st, wLen);
        } else {
            Cast(wf, st, RoundMode::CAST_NONE, wLen);
        }
        event_t evs = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(evs);
        WaitFlag<HardEvent::V_S>(evs);
    }

    __aicore__ inline void Accumulate(uint32_t b, uint32_t od, uint32_t oh0, uint32_t rowCnt, uint32_t coCnt)
    {
        LocalTensor<float> acc = accCalc.Get<float>();
        LocalTensor<float> wf = wCalc.Get<float>();
        LocalTensor<float> xf = xCalc.Get<float>();
        Duplicate(acc, 0.0f, cfg.coutBlock * area);
        // last wide row only needs wOut columns: keeps the read inside the tensor
        uint32_t span = (rowCnt - 1) * cfg.pitch + cfg.wOut;
        DataCopyExtParams cp{1, static_cast<uint32_t>(span * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> np{false, 0, 0, 0};
        for (uint32_t ci = 0; ci < cfg.cin; ++ci) {
            for (uint32_t kd = 0; kd < cfg.k; ++kd) {
                uint64_t plane = (((uint64_t)b * cfg.cin + ci) * cfg.dIn + od + kd) * cfg.hIn;
                for (uint32_t kh = 0; kh < cfg.k; ++kh) {
                    uint64_t base = (plane + oh0 + kh) * cfg.pitch;
                    for (uint32_t kw = 0; kw < cfg.k; ++kw) {
                        LocalTensor<T> xs = xQue.AllocTensor<T>();
                        DataCopyPad(xs, xGm[base + kw], cp, np);
                        xQue.EnQue(xs);
                        xs = xQue.DeQue<T>();
                        if constexpr (IsSameType<T, float>::value) {
                            DataCopy(xf, xs, area);
                        } else {
                            Cast(xf, xs, RoundMode::CAST_NONE, area);
                        }
                        xQue.FreeTensor(xs);
                        PipeBarrier<PIPE_V>();
                        uint32_t tap = ci * k3 + (kd * cfg.k + kh) * cfg.k + kw;
                        for (uint32_t co = 0; co < coCnt; ++co) {
                            Axpy(acc[co * area], xf, wf.GetValue(co * taps + tap), span);
                        }
                        PipeBarrier<PIPE_V>();
                    }
                }
            }
        }
    }

    __aicore__ inline void Emit(uint32_t b, uint32_t od, uint32_t oh0, uint32_t rowCnt, uint32_t co0, uint32_t coCnt)
    {
        LocalTensor<float> acc = accCalc.Get<float>();
        uint32_t burst = cfg.wOut * sizeof(T);
        uint32_t skip = (cfg.pitch * sizeof(T) - (burst + 31) / 32 * 32) / 32;
        DataCopyExtParams cp{static_cast<uint16_t>(rowCnt), burst, skip, 0, 0};
        for (uint32_t co = 0; co < coCnt; ++co) {
            LocalTensor<T> ys = yQue.AllocTensor<T>();
            if constexpr (IsSameType<T, float>::value) {
                DataCopy(ys, acc[co * area], area);
            } else {
                Cast(ys, acc[co * area], RoundMode::CAST_ROUND, area);
            }
            yQue.EnQue(ys);
            ys = yQue.DeQue<T>();
            uint64_t dst = ((((uint64_t)b * cfg.cout + co0 + co) * cfg.dOut + od) * cfg.hOut + oh0) * cfg.wOut;
            DataCopyPad(yGm[dst], ys, cp);
            yQue.FreeTensor(ys);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> yQue;
    TBuf<TPosition::VECCALC> xCalc, accCalc, wStage, wCalc;
    GlobalTensor<T> xGm, wGm, yGm;
    WideConvCfg cfg;
    uint32_t k3, taps, area, wLen;
};

extern "C" __global__ __aicore__ void wide_row_full_conv3d_custom(GM_ADDR x_padded, GM_ADDR weight_flipped, GM_ADDR y,
                                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    WideConvCfg c{td.batch, td.cin, td.cout, td.depthIn, td.heightIn, td.pitch, td.depthOut, td.heightOut,
                  td.widthOut, td.ksize, td.coutBlock, td.rowsPerTile, td.rowTiles, td.workPerCore, td.workTotal};
    if (TILING_KEY_IS(1)) {
        WideRowFullConv3d<half> op;
        op.Init(x_padded, weight_flipped, y, c);
        op.Process();
    } else if (TILING_KEY_IS(0)) {
        WideRowFullConv3d<float> op;
        op.Init(x_padded, weight_flipped, y, c);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// ConvTranspose3d with stride 1 == valid correlation of the (K-1-p)-padded input with the
// spatially flipped, in/out-swapped weight. weight: (Cin, Cout, K, K, K).
at::Tensor wide_row_full_conv3d_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                         int64_t padding, int64_t outputPadding)
{
    TORCH_CHECK(x.dim() == 5 && weight.dim() == 5, "expected 5-D input and weight");
    const int64_t k = weight.size(2);
    TORCH_CHECK(padding <= k - 1, "padding larger than kernel-1 is not supported");
    const int64_t lo = k - 1 - padding;
    const int64_t hi = k - 1 - padding + outputPadding;
    const int64_t outW = x.size(4) + lo + hi - k + 1;
    // extra right pad so the row pitch is a multiple of 16 elements (32B-aligned rows)
    const int64_t widthPadded = x.size(4) + lo + hi;
    const int64_t pitch = (widthPadded + 15) / 16 * 16;
    at::Tensor xp = at::constant_pad_nd(x, {lo, hi + (pitch - widthPadded), lo, hi, lo, hi}, 0).contiguous();
    at::Tensor wf = weight.flip({2, 3, 4}).transpose(0, 1).to(x.scalar_type()).contiguous();

    at::Tensor y = at::empty({x.size(0), wf.size(0), xp.size(2) - k + 1, xp.size(3) - k + 1, outW}, x.options());
    EXEC_NPU_CMD(aclnnWideRowFullConv3dCustom, xp, wf, outW, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("wide_row_full_conv3d_custom", &wide_row_full_conv3d_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("wide_row_full_conv3d_custom", &wide_row_full_conv3d_impl_npu,
          "stride-1 ConvTranspose3d as a wide-row full correlation",
          pybind11::arg("x"), pybind11::arg("weight"), pybind11::arg("padding") = 0,
          pybind11::arg("output_padding") = 0);
}
"""
