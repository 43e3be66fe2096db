project_json_src='''
[
    {
        "op": "PhaseSplitGroupDeconv3dCustom",
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
            {"name": "stride", "param_type": "required", "type": "int"},
            {"name": "padding", "param_type": "required", "type": "int"},
            {"name": "groups", "param_type": "required", "type": "int"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(PhaseSplitGroupDeconv3dTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inChannels);
  TILING_DATA_FIELD_DEF(uint32_t, outChannels);
  TILING_DATA_FIELD_DEF(uint32_t, groups);
  TILING_DATA_FIELD_DEF(uint32_t, inD);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inWPadded);
  TILING_DATA_FIELD_DEF(uint32_t, kernel);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, padding);
  TILING_DATA_FIELD_DEF(uint32_t, outD);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, phaseLen);
  TILING_DATA_FIELD_DEF(uint32_t, phaseLenAligned);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, totalRows);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(PhaseSplitGroupDeconv3dCustom, PhaseSplitGroupDeconv3dTilingData)
}
"""

host_operator_src="""
#include "phase_split_group_deconv3d_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// The binding pads W by `kernel` elements on both sides so that every shifted
// row read of the phase decomposition stays inside the tensor.
struct Deconv3dGeometry {
    uint32_t n, ic, oc, g, d, h, wp, w, k, s, p;
    uint32_t od, oh, ow, phaseLen;

    bool Build(const gert::Shape& xs, const gert::Shape& ws, int64_t stride, int64_t pad, int64_t groups)
    {
        if (xs.GetDimNum() != 5 || ws.GetDimNum() != 5 || stride <= 0 || groups <= 0) {
            return false;
        }
        n = xs.GetDim(0); ic = xs.GetDim(1); d = xs.GetDim(2); h = xs.GetDim(3); wp = xs.GetDim(4);
        k = ws.GetDim(2);
        g = static_cast<uint32_t>(groups);
        oc = ws.GetDim(1) * g;
        s = static_cast<uint32_t>(stride);
        p = static_cast<uint32_t>(pad);
        if (wp <= 2 * k || ic % g != 0) {
            return false;
        }
        w = wp - 2 * k;
        od = (d - 1) * s + k - 2 * p;
        oh = (h - 1) * s + k - 2 * p;
        ow = (w - 1) * s + k - 2 * p;
        phaseLen = (ow + s - 1) / s;
        return true;
    }
};

static inline uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto attrs = context->GetAttrs();
    int64_t stride = *attrs->GetAttrPointer<int64_t>(0);
    int64_t pad = *attrs->GetAttrPointer<int64_t>(1);
    int64_t groups = *attrs->GetAttrPointer<int64_t>(2);

    Deconv3dGeometry geo;
    if (!geo.Build(context->GetInputShape(0)->GetStorageShape(),
                   context->GetInputShape(1)->GetStorageShape(), stride, pad, groups)) {
        return ge::GRAPH_FAILED;
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    // one work row = (n, group, od, oh), covering all output channels of the group
    uint32_t totalRows = geo.n * geo.g * geo.od * geo.oh;
    uint32_t rowsPerCore = (totalRows + coreNum - 1) / coreNum;
    uint32_t usedCores = (totalRows + rowsPerCore - 1) / rowsPerCore;

    PhaseSplitGroupDeconv3dTilingData tiling;
    tiling.set_batch(geo.n);
    tiling.set_inChannels(geo.ic);
    tiling.set_outChannels(geo.oc);
    tiling.set_groups(geo.g);
    tiling.set_inD(geo.d);
    tiling.set_inH(geo.h);
    tiling.set_inWPadded(geo.wp);
    tiling.set_kernel(geo.k);
    tiling.set_stride(geo.s);
    tiling.set_padding(geo.p);
    tiling.set_outD(geo.od);
    tiling.set_outH(geo.oh);
    tiling.set_phaseLen(geo.phaseLen);
    // 16 elements keeps both the half and the float rows on 32B boundaries
    tiling.set_phaseLenAligned(AlignUp(geo.phaseLen, 16));
    tiling.set_rowsPerCore(rowsPerCore);
    tiling.set_totalRows(totalRows);

    auto dtype = context->GetInputDesc(0)->GetDataType();
    context->SetTilingKey(dtype == ge::DT_FLOAT16 ? 1 : 0);
    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    const gert::Shape* ws = context->GetInputShape(1);
    auto attrs = context->GetAttrs();
    int64_t s = *attrs->GetAttrPointer<int64_t>(0);
    int64_t p = *attrs->GetAttrPointer<int64_t>(1);
    int64_t g = *attrs->GetAttrPointer<int64_t>(2);
    int64_t k = ws->GetDim(2);
    int64_t w = xs->GetDim(4) - 2 * k;
    int64_t ow = (w - 1) * s + k - 2 * p;
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(6);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(1) * g);
    ys->SetDim(2, (xs->GetDim(2) - 1) * s + k - 2 * p);
    ys->SetDim(3, (xs->GetDim(3) - 1) * s + k - 2 * p);
    ys->SetDim(4, s);
    ys->SetDim(5, (ow + s - 1) / s);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class PhaseSplitGroupDeconv3dCustom : public OpDef {
public:
    explicit PhaseSplitGroupDeconv3dCustom(const char* name) : OpDef(name)
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
        this->Attr("stride").Int();
        this->Attr("padding").Int();
        this->Attr("groups").Int();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(PhaseSplitGroupDeconv3dCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

struct DeconvParams {
    uint32_t n, ic, oc, g, d, h, wp, k, s, p, od, oh;
    uint32_t phaseLen, phaseLenAligned, rowsPerCore, totalRows;
};

// Resolves which input index feeds output index `o` through tap `t`
// (o + pad - t must be a non-negative multiple of the stride).
__aicore__ inline bool TapSource(int32_t o, int32_t t, int32_t s, int32_t pad, int32_t limit, int32_t& src)
{
    int32_t v = o + pad - t;
    if (v < 0 || v % s != 0) {
        return false;
    }
    src = v / s;
    return src < limit;
}

template <typename T>
class PhaseSplitGroupDeconv3d {
public:
    __aicore__ inline PhaseSplitGroupDeconv3d() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, const DeconvParams& prm, TPipe* pipe)
    {
        this->prm = prm;
        icg = prm.ic / prm.g;
        ocg = prm.oc / prm.g;
        k3 = prm.k * prm.k * prm.k;
        rowSpan = prm.s * prm.phaseLenAligned;

        xGm.SetGlobalBuffer((__gm__ T*)x);
        wGm.SetGlobalBuffer((__gm__ T*)w);
        yGm.SetGlobalBuffer((__gm__ T*)y);

        uint32_t wCount = icg * ocg * k3;
        wCountAligned = (wCount + 15) / 16 * 16;
        pipe->InitBuffer(inQue, BUFFER_NUM, prm.phaseLenAligned * sizeof(T));
        pipe->InitBuffer(outQue, BUFFER_NUM, rowSpan * sizeof(T));
        pipe->InitBuffer(accBuf, ocg * rowSpan * sizeof(float));
        pipe->InitBuffer(xfBuf, prm.phaseLenAligned * sizeof(float));
        pipe->InitBuffer(wRawBuf, wCountAligned * sizeof(T));
        pipe->InitBuffer(wBuf, wCountAligned * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t first = GetBlockIdx() * prm.rowsPerCore;
        uint32_t last = first + prm.rowsPerCore;
        if (last > prm.totalRows) {
            last = prm.totalRows;
        }
        int32_t cachedGroup = -1;
        for (uint32_t row = first; row < last; ++row) {
            uint32_t oh = row % prm.oh;
            uint32_t od = (row / prm.oh) % prm.od;
            uint32_t grp = (row / (prm.oh * prm.od)) % prm.g;
            uint32_t n = row / (prm.oh * prm.od * prm.g);
            if ((int32_t)grp != cachedGroup) {
                LoadGroupWeights(grp);
                cachedGroup = grp;
            }
            AccumulateRow(n, grp, od, oh);
            StoreRow(n, grp, od, oh);
        }
    }

private:
    __aicore__ inline void LoadGroupWeights(uint32_t grp)
    {
        // weight layout (IC, OC/g, K, K, K): a group's slice is contiguous
        LocalTensor<T> raw = wRawBuf.Get<T>();
        LocalTensor<float> wf = wBuf.Get<float>();
        uint32_t cnt = icg * ocg * k3;
        DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(raw, wGm[(uint64_t)grp * cnt], cp, pad);
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(ev);
        WaitFlag<HardEvent::MTE2_V>(ev);
        if constexpr (IsSameType<T, float>::value) {
            DataCopy(wf, raw, wCountAligned);
        } else {
            Cast(wf, raw, RoundMode::CAST_NONE, wCountAligned);
        }
        // weights are read back as scalars
        event_t evS = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(evS);
        WaitFlag<HardEvent::V_S>(evS);
    }

    __aicore__ inline void AccumulateRow(uint32_t n, uint32_t grp, uint32_t od, uint32_t oh)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        Duplicate(acc, 0.0f, ocg * rowSpan);
        const int32_t s = prm.s, pad = prm.p, k = prm.k;
        for (uint32_t icl = 0; icl < icg; ++icl) {
            uint32_t ic = grp * icg + icl;
            for (int32_t kd = 0; kd < k; ++kd) {
                int32_t id;
                if (!TapSource(od, kd, s, pad, prm.d, id)) continue;
                for (int32_t kh = 0; kh < k; ++kh) {
                    int32_t ih;
                    if (!TapSource(oh, kh, s, pad, prm.h, ih)) continue;
                    uint64_t rowBase = (((uint64_t)n * prm.ic + ic) * prm.d + id) * prm.h + ih;
                    rowBase *= prm.wp;
                    for (int32_t kw = 0; kw < k; ++kw) {
                        for (int32_t ph = 0; ph < s; ++ph) {
                            int32_t t = ph + pad - kw;
                            if (((t % s) + s) % s != 0) continue;
                            // output j of phase ph reads input column j + t/s (halo = k)
                            int32_t shift = t / s + k;
                            CopyInSegment(rowBase + shift);
                            LocalTensor<float> xf = ConvertSegment();
                            uint32_t wIdx = (icl * ocg) * k3 + (kd * k + kh) * k + kw;
                            for (uint32_t o = 0; o < ocg; ++o) {
                                float wv = wBuf.Get<float>().GetValue(wIdx + o * k3);
                                Axpy(acc[o * rowSpan + ph * prm.phaseLenAligned], xf, wv, prm.phaseLen);
                            }
                            PipeBarrier<PIPE_V>();
                        }
                    }
                }
            }
        }
    }

    __aicore__ inline void CopyInSegment(uint64_t offset)
    {
        LocalTensor<T> seg = inQue.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(prm.phaseLen * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(seg, xGm[offset], cp, pad);
        inQue.EnQue(seg);
    }

    __aicore__ inline LocalTensor<float> ConvertSegment()
    {
        LocalTensor<T> seg = inQue.DeQue<T>();
        LocalTensor<float> xf = xfBuf.Get<float>();
        if constexpr (IsSameType<T, float>::value) {
            DataCopy(xf, seg, prm.phaseLenAligned);
        } else {
            Cast(xf, seg, RoundMode::CAST_NONE, prm.phaseLenAligned);
        }
        inQue.FreeTensor(seg);
        return xf;
    }

    __aicore__ inline void StoreRow(uint32_t n, uint32_t grp, uint32_t od, uint32_t oh)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        uint32_t burst = prm.phaseLen * sizeof(T);
        uint32_t gapBlocks = (prm.phaseLenAligned * sizeof(T) - (burst + 31) / 32 * 32) / 32;
        for (uint32_t o = 0; o < ocg; ++o) {
            LocalTensor<T> out = outQue.AllocTensor<T>();
            if constexpr (IsSameType<T, float>::value) {
                DataCopy(out, acc[o * rowSpan], rowSpan);
            } else {
                Cast(out, acc[o * rowSpan], RoundMode::CAST_ROUND, rowSpan);
            }
            outQue.EnQue(out);
            out = outQue.DeQue<T>();
            uint32_t oc = grp * ocg + o;
            // y layout (N, OC, OD, OH, stride, phaseLen): phases are interleaved by the binding
            uint64_t dst = ((((uint64_t)n * prm.oc + oc) * prm.od + od) * prm.oh + oh) * prm.s * prm.phaseLen;
            DataCopyExtParams cp{static_cast<uint16_t>(prm.s), burst, gapBlocks, 0, 0};
            DataCopyPad(yGm[dst], out, cp);
            outQue.FreeTensor(out);
        }
    }

private:
    DeconvParams prm;
    uint32_t icg, ocg, k3, rowSpan, wCountAligned;
    GlobalTensor<T> xGm, wGm, yGm;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQue;
    TBuf<TPosition::VECCALC> accBuf, xfBuf, wRawBuf, wBuf;
};

extern "C" __global__ __aicore__ void phase_split_group_deconv3d_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR y,
                                                                        GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    DeconvParams prm{td.batch, td.inChannels, td.outChannels, td.groups, td.inD, td.inH, td.inWPadded,
                     td.kernel, td.stride, td.padding, td.outD, td.outH,
                     td.phaseLen, td.phaseLenAligned, td.rowsPerCore, td.totalRows};
    TPipe pipe;
    if (TILING_KEY_IS(1)) {
        PhaseSplitGroupDeconv3d<half> op;
        op.Init(x, weight, y, prm, &pipe);
        op.Process();
    } else if (TILING_KEY_IS(0)) {
        PhaseSplitGroupDeconv3d<float> op;
        op.Init(x, weight, y, prm, &pipe);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// x: (N, IC, D, H, W), weight: (IC, OC/groups, K, K, K)
at::Tensor phase_split_group_deconv3d_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                               int64_t stride, int64_t padding, int64_t groups)
{
    TORCH_CHECK(x.dim() == 5 && weight.dim() == 5, "expected 5-D input and weight");
    const int64_t k = weight.size(2);
    const int64_t n = x.size(0);
    const int64_t oc = weight.size(1) * groups;
    const int64_t od = (x.size(2) - 1) * stride + k - 2 * padding;
    const int64_t oh = (x.size(3) - 1) * stride + k - 2 * padding;
    const int64_t ow = (x.size(4) - 1) * stride + k - 2 * padding;
    const int64_t phaseLen = (ow + stride - 1) / stride;

    // zero halo along W so every shifted row read is in bounds
    at::Tensor xp = at::constant_pad_nd(x, {k, k}, 0).contiguous();
    at::Tensor w = weight.contiguous();
    at::Tensor yPhase = at::empty({n, oc, od, oh, stride, phaseLen}, x.options());
    EXEC_NPU_CMD(aclnnPhaseSplitGroupDeconv3dCustom, xp, w, stride, padding, groups, yPhase);

    // interleave the stride phases back into the W axis and drop the tail
    at::Tensor y = yPhase.transpose(4, 5).reshape({n, oc, od, oh, stride * phaseLen});
    return y.narrow(4, 0, ow).contiguous();
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("phase_split_group_deconv3d_custom", &phase_split_group_deconv3d_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("phase_split_group_deconv3d_custom", &phase_split_group_deconv3d_impl_npu,
          "grouped strided padded ConvTranspose3d via stride-phase decomposition");
}
"""
