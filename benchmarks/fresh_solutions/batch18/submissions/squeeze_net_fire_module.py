project_json_src='''
[
    {
        "op": "SqueezeExpandConcatReluCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "squeeze_w", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float"]},
            {"name": "squeeze_b", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float"]},
            {"name": "expand1_w", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float"]},
            {"name": "expand1_b", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float"]},
            {"name": "expand3_w", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float"]},
            {"name": "expand3_b", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float"]}
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
BEGIN_TILING_DATA_DEF(SqueezeExpandTiling)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inCh);
  TILING_DATA_FIELD_DEF(uint32_t, sqCh);
  TILING_DATA_FIELD_DEF(uint32_t, e1Ch);
  TILING_DATA_FIELD_DEF(uint32_t, e3Ch);
  TILING_DATA_FIELD_DEF(uint32_t, height);
  TILING_DATA_FIELD_DEF(uint32_t, width);
  TILING_DATA_FIELD_DEF(uint32_t, widthPad);
  TILING_DATA_FIELD_DEF(uint32_t, outTile);     // output channels per store
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, totalUnits);  // batch * height output rows
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SqueezeExpandConcatReluCustom, SqueezeExpandTiling)
}
"""

host_operator_src="""
#include "squeeze_expand_concat_relu_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t FRONT = 16;
constexpr uint64_t SPARE = 12 * 1024;

uint32_t ChooseOutTile(uint64_t ub, uint32_t cin, uint32_t sq, uint32_t wPad, uint32_t elem, uint32_t coTotal)
{
    uint64_t fixed = 2ULL * cin * wPad * elem           // input rows queue
                   + (uint64_t)cin * wPad * 4             // fp32 input rows
                   + (uint64_t)sq * (FRONT + wPad) * 4    // squeezed row staging
                   + 9ULL * sq * wPad * 4                  // 3 rows x 3 column shifts
                   + 3ULL * wPad * 4                       // gather tables
                   + SPARE;
    uint64_t per = (uint64_t)wPad * (4 + 2ULL * elem);
    uint64_t t = ub > fixed ? (ub - fixed) / per : 1;
    if (t == 0) t = 1;
    if (t > 32) t = 32;
    if (t > coTotal) t = coTotal;
    return static_cast<uint32_t>(t);
}
}

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    auto xs = context->GetInputShape(0)->GetStorageShape();
    auto sqw = context->GetInputShape(1)->GetStorageShape();
    auto e1w = context->GetInputShape(3)->GetStorageShape();
    auto e3w = context->GetInputShape(5)->GetStorageShape();
    auto dtype = context->GetInputDesc(0)->GetDataType();
    uint32_t elem = dtype == ge::DT_FLOAT16 ? 2 : 4;

    SqueezeExpandTiling t;
    uint32_t n = xs.GetDim(0), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t wPad = (w + 15) / 16 * 16;
    t.set_batch(n);
    t.set_inCh(xs.GetDim(1));
    t.set_sqCh(sqw.GetDim(0));
    t.set_e1Ch(e1w.GetDim(0));
    t.set_e3Ch(e3w.GetDim(0));
    t.set_height(h);
    t.set_width(w);
    t.set_widthPad(wPad);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t cores = plat.GetCoreNumAiv();
    t.set_outTile(ChooseOutTile(ub, xs.GetDim(1), sqw.GetDim(0), wPad, elem, e1w.GetDim(0) + e3w.GetDim(0)));

    uint32_t units = n * h;
    uint32_t per = (units + cores - 1) / cores;
    t.set_unitsPerCore(per);
    t.set_totalUnits(units);
    context->SetBlockDim((units + per - 1) / per);
    context->SetTilingKey(dtype == ge::DT_FLOAT16 ? 1 : 0);

    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    int64_t e1 = context->GetInputShape(3)->GetDim(0);
    int64_t e3 = context->GetInputShape(5)->GetDim(0);
    gert::Shape *y = context->GetOutputShape(0);
    *y = *x;
    y->SetDim(1, e1 + e3);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class SqueezeExpandConcatReluCustom : public OpDef {
public:
    explicit SqueezeExpandConcatReluCustom(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        const char *params[] = {"squeeze_w", "squeeze_b", "expand1_w", "expand1_b", "expand3_w", "expand3_b"};
        for (const char *p : params) {
            this->Input(p).ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
                .Format({ge::FORMAT_ND, ge::FORMAT_ND})
                .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        }
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(SqueezeExpandConcatReluCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t FRONT = 16;   // zero fp32 slot ahead of each squeezed row (3x3 zero padding)

struct FireWeights {
    GlobalTensor<float> sqW, sqB, e1W, e1B, e3W, e3B;
};

template <typename T>
class SqueezeExpandConcatRelu {
public:
    __aicore__ inline SqueezeExpandConcatRelu() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR sw, GM_ADDR sb, GM_ADDR e1w, GM_ADDR e1b, GM_ADDR e3w,
                                GM_ADDR e3b, GM_ADDR y, const SqueezeExpandTiling &t)
    {
        tl = t;
        xGm.SetGlobalBuffer((__gm__ T *)x);
        yGm.SetGlobalBuffer((__gm__ T *)y);
        wt.sqW.SetGlobalBuffer((__gm__ float *)sw);
        wt.sqB.SetGlobalBuffer((__gm__ float *)sb);
        wt.e1W.SetGlobalBuffer((__gm__ float *)e1w);
        wt.e1B.SetGlobalBuffer((__gm__ float *)e1b);
        wt.e3W.SetGlobalBuffer((__gm__ float *)e3w);
        wt.e3B.SetGlobalBuffer((__gm__ float *)e3b);

        unitLo = GetBlockIdx() * tl.unitsPerCore;
        unitHi = unitLo + tl.unitsPerCore;
        if (unitHi > tl.totalUnits) unitHi = tl.totalUnits;

        const uint32_t wp = tl.widthPad;
        pipe.InitBuffer(inQ, BUFFER_NUM, tl.inCh * wp * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, tl.outTile * wp * sizeof(T));
        pipe.InitBuffer(xfBuf, tl.inCh * wp * sizeof(float));
        pipe.InitBuffer(stageBuf, tl.sqCh * (FRONT + wp) * sizeof(float));
        pipe.InitBuffer(shiftBuf, 9 * tl.sqCh * wp * sizeof(float));
        pipe.InitBuffer(tabBuf, 3 * wp * sizeof(uint32_t));
        pipe.InitBuffer(accBuf, tl.outTile * wp * sizeof(float));

        xf = xfBuf.Get<float>();
        stage = stageBuf.Get<float>();
        shifted = shiftBuf.Get<float>();
        tab = tabBuf.Get<uint32_t>();
        acc = accBuf.Get<float>();

        // per column shift (-1, 0, +1): byte offset into one staged row, 0 => zero slot
        for (uint32_t s = 0; s < 3; ++s) {
            for (uint32_t j = 0; j < wp; ++j) {
                int32_t src = static_cast<int32_t>(j) + static_cast<int32_t>(s) - 1;
                uint32_t off = (j < tl.width && src >= 0 && src < static_cast<int32_t>(tl.width))
                                   ? (FRONT + src) * sizeof(float) : 0;
                tab.SetValue(s * wp + j, off);
            }
        }
        Duplicate(stage, 0.0f, tl.sqCh * (FRONT + wp));
        event_t sv = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t u = unitLo; u < unitHi; ++u) {
            uint32_t n = u / tl.height;
            uint32_t h = u % tl.height;
            for (uint32_t dh = 0; dh < 3; ++dh) {
                int32_t hh = static_cast<int32_t>(h) + static_cast<int32_t>(dh) - 1;
                BuildSqueezedRow(n, hh, dh);
            }
            uint32_t coTotal = tl.e1Ch + tl.e3Ch;
            for (uint32_t c0 = 0; c0 < coTotal; c0 += tl.outTile) {
                uint32_t cnt = coTotal - c0 < tl.outTile ? coTotal - c0 : tl.outTile;
                ExpandTile(c0, cnt);
                StoreTile(n, h, c0, cnt);
            }
        }
    }

private:
    __aicore__ inline LocalTensor<float> Shifted(uint32_t dh, uint32_t dw, uint32_t s)
    {
        return shifted[((dh * 3 + dw) * tl.sqCh + s) * tl.widthPad];
    }

    // relu(1x1 squeeze) of input row hh, then three column-shifted copies
    __aicore__ inline void BuildSqueezedRow(uint32_t n, int32_t hh, uint32_t dh)
    {
        const uint32_t wp = tl.widthPad;
        if (hh < 0 || hh >= static_cast<int32_t>(tl.height)) {
            Duplicate(Shifted(dh, 0, 0), 0.0f, 3 * tl.sqCh * wp);
            PipeBarrier<PIPE_V>();
            return;
        }
        LocalTensor<T> xl = inQ.AllocTensor<T>();
        uint64_t plane = (uint64_t)tl.height * tl.width;
        uint64_t src = (uint64_t)n * tl.inCh * plane + (uint64_t)hh * tl.width;
        uint32_t rowBytes = tl.width * sizeof(T);
        DataCopyExtParams cp{static_cast<uint16_t>(tl.inCh), rowBytes,
                             static_cast<uint32_t>((plane - tl.width) * sizeof(T)),
                             static_cast<uint32_t>((wp * sizeof(T) - (rowBytes + 31) / 32 * 32) / 32), 0};
        DataCopyPad(xl, xGm[src], cp, DataCopyPadExtParams<T>{false, 0, 0, static_cast<T>(0)});
        inQ.EnQue(xl);
        xl = inQ.DeQue<T>();
        if constexpr (std::is_same<T, float>::value) {
            DataCopy(xf, xl, tl.inCh * wp);
        } else {
            Cast(xf, xl, RoundMode::CAST_NONE, tl.inCh * wp);
        }
        inQ.FreeTensor(xl);
        PipeBarrier<PIPE_V>();

        for (uint32_t s = 0; s < tl.sqCh; ++s) {
            LocalTensor<float> row = stage[s * (FRONT + wp) + FRONT];
            Duplicate(row, wt.sqB.GetValue(s), tl.width);
            PipeBarrier<PIPE_V>();
            for (uint32_t c = 0; c < tl.inCh; ++c) {
                Axpy(row, xf[c * wp], wt.sqW.GetValue(s * tl.inCh + c), tl.width);
                PipeBarrier<PIPE_V>();
            }
            Relus(row, row, 0.0f, tl.width);
        }
        PipeBarrier<PIPE_V>();
        for (uint32_t s = 0; s < tl.sqCh; ++s) {
            LocalTensor<float> base = stage[s * (FRONT + wp)];
            for (uint32_t dw = 0; dw < 3; ++dw) {
                LocalTensor<float> dst = Shifted(dh, dw, s);
                LocalTensor<uint32_t> off = tab[dw * wp];
                Gather(dst, base, off, (uint32_t)0, wp);
            }
        }
        PipeBarrier<PIPE_V>();
    }

    __aicore__ inline void ExpandTile(uint32_t c0, uint32_t cnt)
    {
        const uint32_t wp = tl.widthPad;
        for (uint32_t i = 0; i < cnt; ++i) {
            uint32_t co = c0 + i;
            LocalTensor<float> a = acc[i * wp];
            if (co < tl.e1Ch) {
                Duplicate(a, wt.e1B.GetValue(co), wp);
                PipeBarrier<PIPE_V>();
                for (uint32_t s = 0; s < tl.sqCh; ++s) {
                    Axpy(a, Shifted(1, 1, s), wt.e1W.GetValue(co * tl.sqCh + s), wp);
                    PipeBarrier<PIPE_V>();
                }
            } else {
                uint32_t e = co - tl.e1Ch;
                Duplicate(a, wt.e3B.GetValue(e), wp);
                PipeBarrier<PIPE_V>();
                for (uint32_t s = 0; s < tl.sqCh; ++s) {
                    uint64_t wb = ((uint64_t)e * tl.sqCh + s) * 9;
                    for (uint32_t tap = 0; tap < 9; ++tap) {
                        Axpy(a, Shifted(tap / 3, tap % 3, s), wt.e3W.GetValue(wb + tap), wp);
                        PipeBarrier<PIPE_V>();
                    }
                }
            }
        }
        Relus(acc, acc, 0.0f, cnt * wp);
        PipeBarrier<PIPE_V>();
    }

    __aicore__ inline void StoreTile(uint32_t n, uint32_t h, uint32_t c0, uint32_t cnt)
    {
        const uint32_t wp = tl.widthPad;
        LocalTensor<T> yl = outQ.AllocTensor<T>();
        if constexpr (std::is_same<T, float>::value) {
            DataCopy(yl, acc, cnt * wp);
        } else {
            Cast(yl, acc, RoundMode::CAST_RINT, cnt * wp);
        }
        outQ.EnQue(yl);
        yl = outQ.DeQue<T>();
        uint64_t plane = (uint64_t)tl.height * tl.width;
        uint64_t dst = ((uint64_t)n * (tl.e1Ch + tl.e3Ch) + c0) * plane + (uint64_t)h * tl.width;
        uint32_t rowBytes = tl.width * sizeof(T);
        DataCopyExtParams cp{static_cast<uint16_t>(cnt), rowBytes,
                             static_cast<uint32_t>((wp * sizeof(T) - (rowBytes + 31) / 32 * 32) / 32),
                             static_cast<uint32_t>((plane - tl.width) * sizeof(T)), 0};
        DataCopyPad(yGm[dst], yl, cp);
        outQ.FreeTensor(yl);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQ;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> xfBuf, stageBuf, shiftBuf, tabBuf, accBuf;
    LocalTensor<float> xf, stage, shifted, acc;
    LocalTensor<uint32_t> tab;
    GlobalTensor<T> xGm, yGm;
    FireWeights wt;
    SqueezeExpandTiling tl;
    uint32_t unitLo = 0, unitHi = 0;
};

extern "C" __global__ __aicore__ void squeeze_expand_concat_relu_custom(GM_ADDR x, GM_ADDR squeeze_w,
    GM_ADDR squeeze_b, GM_ADDR expand1_w, GM_ADDR expand1_b, GM_ADDR expand3_w, GM_ADDR expand3_b, GM_ADDR y,
    GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        SqueezeExpandConcatRelu<float> op;
        op.Init(x, squeeze_w, squeeze_b, expand1_w, expand1_b, expand3_w, expand3_b, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        SqueezeExpandConcatRelu<half> op;
        op.Init(x, squeeze_w, squeeze_b, expand1_w, expand1_b, expand3_w, expand3_b, y, td);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// Fire module: relu(squeeze 1x1) -> cat(relu(expand 1x1), relu(expand 3x3, pad 1)) along channels
at::Tensor squeeze_expand_concat_relu_impl_npu(const at::Tensor &x,
                                               const at::Tensor &squeeze_w, const at::Tensor &squeeze_b,
                                               const at::Tensor &expand1_w, const at::Tensor &expand1_b,
                                               const at::Tensor &expand3_w, const at::Tensor &expand3_b)
{
    TORCH_CHECK(x.dim() == 4, "expected NCHW input");
    TORCH_CHECK(expand3_w.size(2) == 3 && expand3_w.size(3) == 3, "expand3x3 kernel must be 3x3");
    auto f32 = [](const at::Tensor &t) { return t.to(at::kFloat).contiguous(); };
    at::Tensor xc = x.contiguous();
    at::Tensor sw = f32(squeeze_w), sb = f32(squeeze_b);
    at::Tensor e1w = f32(expand1_w), e1b = f32(expand1_b);
    at::Tensor e3w = f32(expand3_w), e3b = f32(expand3_b);
    at::Tensor y = at::empty({x.size(0), expand1_w.size(0) + expand3_w.size(0), x.size(2), x.size(3)},
                             x.options());
    EXEC_NPU_CMD(aclnnSqueezeExpandConcatReluCustom, xc, sw, sb, e1w, e1b, e3w, e3b, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("squeeze_expand_concat_relu_custom", &squeeze_expand_concat_relu_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("squeeze_expand_concat_relu_custom", &squeeze_expand_concat_relu_impl_npu,
          "SqueezeNet fire module forward");
}
"""
