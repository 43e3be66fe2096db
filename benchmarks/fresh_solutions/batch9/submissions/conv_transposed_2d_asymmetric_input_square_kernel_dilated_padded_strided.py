project_json_src='''
[
    {
        "op": "FractionalStrideConv2dCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            },
            {
                "name": "weight_t",
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
            {"name": "stride", "param_type": "optional", "type": "int", "default_value": "1"},
            {"name": "padding", "param_type": "optional", "type": "int", "default_value": "0"},
            {"name": "dilation", "param_type": "optional", "type": "int", "default_value": "1"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(FractionalStrideConv2dTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inC);
  TILING_DATA_FIELD_DEF(uint32_t, outC);
  TILING_DATA_FIELD_DEF(uint32_t, hIn);
  TILING_DATA_FIELD_DEF(uint32_t, wIn);
  TILING_DATA_FIELD_DEF(uint32_t, hOut);
  TILING_DATA_FIELD_DEF(uint32_t, wOut);
  TILING_DATA_FIELD_DEF(uint32_t, kSize);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, dilation);
  TILING_DATA_FIELD_DEF(uint32_t, wInPad);       // UB row pitch of an input row (elements)
  TILING_DATA_FIELD_DEF(uint32_t, wOutPad);      // UB row pitch of an output row (elements)
  TILING_DATA_FIELD_DEF(uint32_t, ocTile);       // output channels per work unit
  TILING_DATA_FIELD_DEF(uint32_t, ocBlocks);
  TILING_DATA_FIELD_DEF(uint32_t, wSlicePitch);  // UB pitch of one [ocTile, IC] weight slice
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, extraUnits);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(FractionalStrideConv2dCustom, FractionalStrideConv2dTilingData)
}
"""

host_operator_src="""
#include "fractional_stride_conv2d_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t PITCH_ALIGN = 16;   // 16 elements keeps fp16 and fp32 rows 32B aligned
constexpr uint32_t DB = 2;

inline uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

struct ConvGeom {
    uint32_t n, ic, oc, hi, wi, k, s, p, d, ho, wo;
};

bool ReadGeom(gert::TilingContext *ctx, ConvGeom &g)
{
    // x: [N, IC, H, W]; weight_t: [K, K, OC, IC] (pre-permuted by the binding)
    const gert::Shape &xs = ctx->GetInputShape(0)->GetStorageShape();
    const gert::Shape &ws = ctx->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 4 || ws.GetDimNum() != 4 || ws.GetDim(3) != xs.GetDim(1)) {
        return false;
    }
    auto attrs = ctx->GetAttrs();
    g.n = xs.GetDim(0);
    g.ic = xs.GetDim(1);
    g.hi = xs.GetDim(2);
    g.wi = xs.GetDim(3);
    g.k = ws.GetDim(0);
    g.oc = ws.GetDim(2);
    g.s = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    g.p = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(1));
    g.d = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(2));
    int64_t ho = (int64_t)(g.hi - 1) * g.s - 2 * (int64_t)g.p + (int64_t)g.d * (g.k - 1) + 1;
    int64_t wo = (int64_t)(g.wi - 1) * g.s - 2 * (int64_t)g.p + (int64_t)g.d * (g.k - 1) + 1;
    if (ho <= 0 || wo <= 0 || g.s == 0) {
        return false;
    }
    g.ho = static_cast<uint32_t>(ho);
    g.wo = static_cast<uint32_t>(wo);
    return true;
}

// largest oc tile whose accumulators, output queue and weight slices fit beside the fixed buffers
uint32_t PickOcTile(const ConvGeom &g, uint32_t typeSize, uint32_t wInPad, uint32_t wOutPad, uint64_t ub)
{
    uint64_t fixed = (uint64_t)DB * g.ic * wInPad * typeSize      // raw input rows
                   + (uint64_t)g.ic * wInPad * sizeof(float)      // fp32 input rows
                   + (uint64_t)(wInPad + PITCH_ALIGN) * sizeof(float)
                   + (uint64_t)wOutPad * sizeof(float)            // gathered row
                   + (uint64_t)g.k * wOutPad * sizeof(uint32_t)   // gather offsets
                   + 8 * 1024;
    if (fixed >= ub) {
        return 1;
    }
    uint64_t perOc = (uint64_t)wOutPad * sizeof(float) + (uint64_t)DB * wOutPad * typeSize
                   + (uint64_t)DB * g.k * g.ic * typeSize + 64;
    uint64_t t = (ub - fixed) / perOc;
    if (t > g.oc) {
        t = g.oc;
    }
    if (t > 8) {
        t = t / 8 * 8;
    }
    return t == 0 ? 1 : static_cast<uint32_t>(t);
}
} // namespace

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    ConvGeom g;
    if (!ReadGeom(context, g)) {
        return ge::GRAPH_FAILED;
    }
    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t typeSize = dt == ge::DT_FLOAT16 ? 2 : 4;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t cores = plat.GetCoreNumAiv();

    uint32_t wInPad = AlignUp(g.wi, PITCH_ALIGN);
    uint32_t wOutPad = AlignUp(g.wo, PITCH_ALIGN);
    uint32_t ocTile = PickOcTile(g, typeSize, wInPad, wOutPad, ub);
    uint32_t ocBlocks = (g.oc + ocTile - 1) / ocTile;
    uint32_t units = g.n * g.ho * ocBlocks;
    uint32_t used = units < cores ? units : cores;

    FractionalStrideConv2dTilingData td;
    td.set_batch(g.n);
    td.set_inC(g.ic);
    td.set_outC(g.oc);
    td.set_hIn(g.hi);
    td.set_wIn(g.wi);
    td.set_hOut(g.ho);
    td.set_wOut(g.wo);
    td.set_kSize(g.k);
    td.set_stride(g.s);
    td.set_pad(g.p);
    td.set_dilation(g.d);
    td.set_wInPad(wInPad);
    td.set_wOutPad(wOutPad);
    td.set_ocTile(ocTile);
    td.set_ocBlocks(ocBlocks);
    td.set_wSlicePitch(AlignUp(ocTile * g.ic, PITCH_ALIGN));
    td.set_unitsPerCore(units / used);
    td.set_extraUnits(units % used);

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
    const gert::Shape *ws = context->GetInputShape(1);
    auto attrs = context->GetAttrs();
    int64_t s = *attrs->GetAttrPointer<int64_t>(0);
    int64_t p = *attrs->GetAttrPointer<int64_t>(1);
    int64_t d = *attrs->GetAttrPointer<int64_t>(2);
    int64_t k = ws->GetDim(0);
    gert::Shape *ys = context->GetOutputShape(0);
    ys->SetDimNum(4);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(2));
    ys->SetDim(2, (xs->GetDim(2) - 1) * s - 2 * p + d * (k - 1) + 1);
    ys->SetDim(3, (xs->GetDim(3) - 1) * s - 2 * p + d * (k - 1) + 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class FractionalStrideConv2dCustom : public OpDef {
public:
    explicit FractionalStrideConv2dCustom(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("weight_t")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("padding").AttrType(OPTIONAL).Int(0);
        this->Attr("dilation").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(FractionalStrideConv2dCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Gather-form transposed conv on one output row:
//   y[n, oc, oh, ow] = sum_{kh valid} sum_kw sum_ic w[kh, kw, oc, ic] * x[n, ic, ih(oh,kh), iw(ow,kw)]
// For each (kh, kw, oc) the IC reduction is done on whole input rows (Axpy over W_in), and the
// stride/dilation scatter along W is turned into a Gather with a precomputed byte-offset table;
// taps that do not land on an input column read a zero slot placed after the row.
class TapTable {
public:
    __aicore__ inline void Build(TPipe *pipe, uint32_t k, uint32_t wOut, uint32_t wOutPad, uint32_t wIn,
                                 uint32_t wInPad, uint32_t s, uint32_t p, uint32_t d)
    {
        pitch = wOutPad;
        pipe->InitBuffer(buf, k * wOutPad * sizeof(uint32_t));
        LocalTensor<uint32_t> t = buf.Get<uint32_t>();
        uint32_t zeroSlot = wInPad * sizeof(float);
        for (uint32_t kw = 0; kw < k; ++kw) {
            for (uint32_t ow = 0; ow < wOutPad; ++ow) {
                int32_t num = static_cast<int32_t>(ow) + static_cast<int32_t>(p) - static_cast<int32_t>(kw * d);
                uint32_t v = zeroSlot;
                if (ow < wOut && num >= 0 && (num % static_cast<int32_t>(s)) == 0) {
                    uint32_t iw = static_cast<uint32_t>(num) / s;
                    if (iw < wIn) {
                        v = iw * sizeof(float);
                    }
                }
                t.SetValue(kw * wOutPad + ow, v);
            }
        }
    }
    __aicore__ inline LocalTensor<uint32_t> Row(uint32_t kw) { return buf.Get<uint32_t>()[kw * pitch]; }

private:
    TBuf<TPosition::VECCALC> buf;
    uint32_t pitch = 0;
};

template <typename T>
class FractionalStrideConv2d {
public:
    __aicore__ inline FractionalStrideConv2d() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, const FractionalStrideConv2dTilingData &td)
    {
        t = td;
        uint32_t idx = GetBlockIdx();
        unitCount = td.unitsPerCore + (idx < td.extraUnits ? 1 : 0);
        unitFirst = idx * td.unitsPerCore + (idx < td.extraUnits ? idx : td.extraUnits);

        xGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(x), (uint64_t)t.batch * t.inC * t.hIn * t.wIn);
        wGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(w), (uint64_t)t.kSize * t.kSize * t.outC * t.inC);
        yGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(y), (uint64_t)t.batch * t.outC * t.hOut * t.wOut);

        pipe.InitBuffer(xQue, BUFFER_NUM, t.inC * t.wInPad * sizeof(T));
        pipe.InitBuffer(wQue, BUFFER_NUM, t.kSize * t.wSlicePitch * sizeof(T));
        pipe.InitBuffer(yQue, BUFFER_NUM, t.ocTile * t.wOutPad * sizeof(T));
        pipe.InitBuffer(xfBuf, t.inC * t.wInPad * sizeof(float));
        pipe.InitBuffer(partBuf, (t.wInPad + 16) * sizeof(float));   // row + zero slot
        pipe.InitBuffer(gathBuf, t.wOutPad * sizeof(float));
        pipe.InitBuffer(accBuf, t.ocTile * t.wOutPad * sizeof(float));
        taps.Build(&pipe, t.kSize, t.wOut, t.wOutPad, t.wIn, t.wInPad, t.stride, t.pad, t.dilation);

        LocalTensor<float> part = partBuf.Get<float>();
        Duplicate(part, 0.0f, t.wInPad + 16);
        PipeBarrier<PIPE_V>();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t u = 0; u < unitCount; ++u) {
            uint32_t unit = unitFirst + u;
            uint32_t ob = unit % t.ocBlocks;
            uint32_t row = unit / t.ocBlocks;          // n * hOut + oh
            uint32_t oh = row % t.hOut;
            uint32_t n = row / t.hOut;
            uint32_t oc0 = ob * t.ocTile;
            uint32_t ocn = (t.outC - oc0) < t.ocTile ? (t.outC - oc0) : t.ocTile;
            RunUnit(n, oh, oc0, ocn);
        }
    }

private:
    __aicore__ inline void RunUnit(uint32_t n, uint32_t oh, uint32_t oc0, uint32_t ocn)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        Duplicate(acc, 0.0f, t.ocTile * t.wOutPad);
        PipeBarrier<PIPE_V>();
        for (uint32_t kh = 0; kh < t.kSize; ++kh) {
            int32_t num = static_cast<int32_t>(oh + t.pad) - static_cast<int32_t>(kh * t.dilation);
            if (num < 0 || (num % static_cast<int32_t>(t.stride)) != 0) {
                continue;
            }
            uint32_t ih = static_cast<uint32_t>(num) / t.stride;
            if (ih >= t.hIn) {
                continue;
            }
            LoadRows(n, ih, kh, oc0, ocn);
            Accumulate(acc, ocn);
        }
        StoreRows(acc, n, oh, oc0, ocn);
    }

    __aicore__ inline void LoadRows(uint32_t n, uint32_t ih, uint32_t kh, uint32_t oc0, uint32_t ocn)
    {
        LocalTensor<T> xl = xQue.AllocTensor<T>();
        uint64_t xOff = ((uint64_t)n * t.inC * t.hIn + ih) * t.wIn;
        uint32_t rowBytes = t.wIn * sizeof(T);
        uint32_t rowBlocks = (rowBytes + 31) / 32;
        DataCopyExtParams xcp{static_cast<uint16_t>(t.inC), rowBytes,
                              static_cast<uint32_t>((t.hIn - 1) * t.wIn * sizeof(T)),
                              static_cast<uint32_t>(t.wInPad * sizeof(T) / 32 - rowBlocks), 0};
        DataCopyPad(xl, xGm[xOff], xcp, DataCopyPadExtParams<T>{true, 0, 0, 0});

        LocalTensor<T> wl = wQue.AllocTensor<T>();
        uint64_t wOff = ((uint64_t)kh * t.kSize * t.outC + oc0) * t.inC;
        uint32_t sliceBytes = ocn * t.inC * sizeof(T);
        DataCopyExtParams wcp{static_cast<uint16_t>(t.kSize), sliceBytes,
                              static_cast<uint32_t>((t.outC - ocn) * t.inC * sizeof(T)),
                              static_cast<uint32_t>(t.wSlicePitch * sizeof(T) / 32 - (sliceBytes + 31) / 32), 0};
        DataCopyPad(wl, wGm[wOff], wcp, DataCopyPadExtParams<T>{false, 0, 0, 0});
        xQue.EnQue(xl);
        wQue.EnQue(wl);
    }

    __aicore__ inline void Accumulate(const LocalTensor<float> &acc, uint32_t ocn)
    {
        LocalTensor<T> xl = xQue.DeQue<T>();
        LocalTensor<T> wl = wQue.DeQue<T>();
        LocalTensor<float> xf = xfBuf.Get<float>();
        LocalTensor<float> part = partBuf.Get<float>();
        LocalTensor<float> gath = gathBuf.Get<float>();
        uint32_t rows = t.inC * t.wInPad;
        if constexpr (IsSameType<T, float>::value) {
            DataCopy(xf, xl, rows);
        } else {
            Cast(xf, xl, RoundMode::CAST_NONE, rows);
        }
        PipeBarrier<PIPE_V>();
        // weights are consumed as scalars
        event_t evMS = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(evMS);
        WaitFlag<HardEvent::MTE2_S>(evMS);

        for (uint32_t kw = 0; kw < t.kSize; ++kw) {
            LocalTensor<uint32_t> offs = taps.Row(kw);
            for (uint32_t o = 0; o < ocn; ++o) {
                uint32_t wBase = kw * t.wSlicePitch + o * t.inC;
                float w0 = static_cast<float>(wl.GetValue(wBase));
                Muls(part, xf, w0, t.wInPad);
                PipeBarrier<PIPE_V>();
                for (uint32_t c = 1; c < t.inC; ++c) {
                    float wc = static_cast<float>(wl.GetValue(wBase + c));
                    Axpy(part, xf[c * t.wInPad], wc, t.wInPad);
                    PipeBarrier<PIPE_V>();
                }
                Gather(gath, part, offs, 0, t.wOutPad);
                PipeBarrier<PIPE_V>();
                Add(acc[o * t.wOutPad], acc[o * t.wOutPad], gath, t.wOutPad);
                PipeBarrier<PIPE_V>();
            }
        }
        xQue.FreeTensor(xl);
        wQue.FreeTensor(wl);
    }

    __aicore__ inline void StoreRows(const LocalTensor<float> &acc, uint32_t n, uint32_t oh, uint32_t oc0, uint32_t ocn)
    {
        LocalTensor<T> yl = yQue.AllocTensor<T>();
        if constexpr (IsSameType<T, float>::value) {
            DataCopy(yl, acc, ocn * t.wOutPad);
        } else {
            Cast(yl, acc, RoundMode::CAST_ROUND, ocn * t.wOutPad);
        }
        yQue.EnQue(yl);
        yl = yQue.DeQue<T>();
        uint64_t plane = (uint64_t)t.hOut * t.wOut;
        uint64_t yOff = ((uint64_t)n * t.outC + oc0) * plane + (uint64_t)oh * t.wOut;
        uint32_t rowBytes = t.wOut * sizeof(T);
        DataCopyExtParams cp{static_cast<uint16_t>(ocn), rowBytes,
                             static_cast<uint32_t>(t.wOutPad * sizeof(T) / 32 - (rowBytes + 31) / 32),
                             static_cast<uint32_t>((plane - t.wOut) * sizeof(T)), 0};
        DataCopyPad(yGm[yOff], yl, cp);
        yQue.FreeTensor(yl);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQue, wQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> yQue;
    TBuf<TPosition::VECCALC> xfBuf, partBuf, gathBuf, accBuf;
    GlobalTensor<T> xGm, wGm, yGm;
    TapTable taps;
    FractionalStrideConv2dTilingData t;
    uint32_t unitCount, unitFirst;
};

extern "C" __global__ __aicore__ void fractional_stride_conv2d_custom(GM_ADDR x, GM_ADDR weight_t, GM_ADDR y,
                                                                      GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        FractionalStrideConv2d<float> op;
        op.Init(x, weight_t, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        FractionalStrideConv2d<half> op;
        op.Init(x, weight_t, y, td);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// weight: nn.ConvTranspose2d layout [IC, OC, K, K]
at::Tensor fractional_stride_conv2d_impl_npu(const at::Tensor &x, const at::Tensor &weight,
                                             int64_t stride, int64_t padding, int64_t dilation)
{
    TORCH_CHECK(x.dim() == 4 && weight.dim() == 4, "expected NCHW input and 4-D weight");
    TORCH_CHECK(weight.size(2) == weight.size(3), "square kernel expected");
    // [IC, OC, K, K] -> [K, K, OC, IC] so one (kh, kw) slice is contiguous per oc
    at::Tensor wT = weight.permute({2, 3, 1, 0}).contiguous();
    at::Tensor xc = x.contiguous();
    int64_t k = weight.size(2);
    int64_t ho = (x.size(2) - 1) * stride - 2 * padding + dilation * (k - 1) + 1;
    int64_t wo = (x.size(3) - 1) * stride - 2 * padding + dilation * (k - 1) + 1;
    at::Tensor y = at::empty({x.size(0), weight.size(1), ho, wo}, x.options());
    EXEC_NPU_CMD(aclnnFractionalStrideConv2dCustom, xc, wT, stride, padding, dilation, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("fractional_stride_conv2d_custom", &fractional_stride_conv2d_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("fractional_stride_conv2d_custom", &fractional_stride_conv2d_impl_npu,
          "transposed 2-D conv with stride / padding / dilation");
}
"""
