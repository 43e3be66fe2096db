project_json_src='''
[
    {
        "op": "VolumeDeconvGatherCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "weight_t",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ],
        "output_desc": [
            {
                "name": "y",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
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
BEGIN_TILING_DATA_DEF(VolumeDeconvGatherTiling)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, inD);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outD);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, ksize);
  TILING_DATA_FIELD_DEF(int32_t, stride);
  TILING_DATA_FIELD_DEF(int32_t, pad);
  TILING_DATA_FIELD_DEF(int32_t, dil);
  TILING_DATA_FIELD_DEF(uint32_t, inWAlign);
  TILING_DATA_FIELD_DEF(uint32_t, outWAlign);
  TILING_DATA_FIELD_DEF(uint32_t, rowsTotal);   // batch * outD * outH output rows
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(VolumeDeconvGatherCustom, VolumeDeconvGatherTiling)
}
"""

host_operator_src="""
#include "volume_deconv_gather_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint64_t UB_LIMIT = 180 * 1024;

static inline uint32_t Align8(uint32_t v) { return (v + 7U) & ~7U; }

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    VolumeDeconvGatherTiling t;
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& ws = context->GetInputShape(1)->GetStorageShape();   // (K, K, K, Cin, Cout)
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    int32_t s = static_cast<int32_t>(*attrs->GetAttrPointer<int64_t>(0));
    int32_t p = static_cast<int32_t>(*attrs->GetAttrPointer<int64_t>(1));
    int32_t d = static_cast<int32_t>(*attrs->GetAttrPointer<int64_t>(2));

    uint32_t n = xs.GetDim(0), ci = xs.GetDim(1), id = xs.GetDim(2), ih = xs.GetDim(3), iw = xs.GetDim(4);
    uint32_t k = ws.GetDim(0);
    uint32_t co = ws.GetDim(4);
    int32_t od = (static_cast<int32_t>(id) - 1) * s - 2 * p + d * (static_cast<int32_t>(k) - 1) + 1;
    int32_t oh = (static_cast<int32_t>(ih) - 1) * s - 2 * p + d * (static_cast<int32_t>(k) - 1) + 1;
    int32_t ow = (static_cast<int32_t>(iw) - 1) * s - 2 * p + d * (static_cast<int32_t>(k) - 1) + 1;
    if (od <= 0 || oh <= 0 || ow <= 0 || s <= 0 || d <= 0) {
        return ge::GRAPH_FAILED;
    }

    uint32_t iwA = Align8(iw);
    uint32_t owA = Align8(static_cast<uint32_t>(ow));
    // acc + gathered rows + raw input rows + one (kd, kh) weight slice
    uint64_t ub = (static_cast<uint64_t>(co) * owA + static_cast<uint64_t>(ci) * owA +
                   static_cast<uint64_t>(ci) * iwA + static_cast<uint64_t>(k) * ci * co) * sizeof(float);
    if (ub > UB_LIMIT) {
        return ge::GRAPH_FAILED;
    }

    uint32_t rows = n * static_cast<uint32_t>(od) * static_cast<uint32_t>(oh);
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores == 0) cores = 1;
    uint32_t per = (rows + cores - 1) / cores;
    uint32_t blocks = (rows + per - 1) / per;

    t.set_batch(n);
    t.set_cin(ci);
    t.set_cout(co);
    t.set_inD(id);
    t.set_inH(ih);
    t.set_inW(iw);
    t.set_outD(od);
    t.set_outH(oh);
    t.set_outW(ow);
    t.set_ksize(k);
    t.set_stride(s);
    t.set_pad(p);
    t.set_dil(d);
    t.set_inWAlign(iwA);
    t.set_outWAlign(owA);
    t.set_rowsTotal(rows);
    t.set_rowsPerCore(per);

    context->SetBlockDim(blocks);
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
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    int64_t s = *attrs->GetAttrPointer<int64_t>(0);
    int64_t p = *attrs->GetAttrPointer<int64_t>(1);
    int64_t d = *attrs->GetAttrPointer<int64_t>(2);
    int64_t k = ws->GetDim(0);
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(5);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(4));
    for (size_t i = 2; i < 5; ++i) {
        ys->SetDim(i, (xs->GetDim(i) - 1) * s - 2 * p + d * (k - 1) + 1);
    }
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class VolumeDeconvGatherCustom : public OpDef {
public:
    explicit VolumeDeconvGatherCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight_t")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("padding").AttrType(OPTIONAL).Int(0);
        this->Attr("dilation").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(VolumeDeconvGatherCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

template <HardEvent E>
__aicore__ inline void Handoff()
{
    event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(E));
    SetFlag<E>(e);
    WaitFlag<E>(e);
}

// Transposed 3-D convolution written in "gather" form:
//   y[n, co, od, oh, ow] = sum_{ci, kd, kh, kw} x[n, ci, id, ih, iw] * w[ci, co, kd, kh, kw]
// with od = id * s - p + kd * dil (and the same for h, w). For a fixed output row
// (n, od, oh) only the (kd, kh) pairs with an integral, in-range (id, ih) contribute.
// For every contributing (kd, kh, kw) the input row is gathered into output-column
// order once, and then all Cout rows of the accumulator are updated with Axpy.
// The weight arrives pre-permuted as (kd, kh, kw, ci, co).
class VolumeDeconvGatherKernel {
public:
    __aicore__ inline VolumeDeconvGatherKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, const VolumeDeconvGatherTiling& t)
    {
        N = t.batch; CI = t.cin; CO = t.cout;
        D = t.inD; H = t.inH; W = t.inW;
        OD = t.outD; OH = t.outH; OW = t.outW;
        K = t.ksize; S = t.stride; P = t.pad; DL = t.dil;
        iwA = t.inWAlign; owA = t.outWAlign;

        first = GetBlockIdx() * t.rowsPerCore;
        last = first + t.rowsPerCore;
        if (last > t.rowsTotal) last = t.rowsTotal;

        xGm.SetGlobalBuffer((__gm__ float*)x, static_cast<uint64_t>(N) * CI * D * H * W);
        wGm.SetGlobalBuffer((__gm__ float*)w, static_cast<uint64_t>(K) * K * K * CI * CO);
        yGm.SetGlobalBuffer((__gm__ float*)y, static_cast<uint64_t>(N) * CO * OD * OH * OW);

        pipe.InitBuffer(accBuf, CO * owA * sizeof(float));
        pipe.InitBuffer(gathBuf, CI * owA * sizeof(float));
        pipe.InitBuffer(rowBuf, CI * iwA * sizeof(float));
        pipe.InitBuffer(wBuf, K * CI * CO * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = first; r < last; ++r) {
            OneRow(r);
        }
    }

private:
    // Maps an output coordinate to its input coordinate for tap k, or -1 if none.
    __aicore__ inline int32_t SourceIndex(int32_t o, int32_t k, int32_t limit)
    {
        int32_t t = o + P - k * DL;
        if (t < 0 || (t % S) != 0) return -1;
        t /= S;
        return t < limit ? t : -1;
    }

    __aicore__ inline void OneRow(uint32_t r)
    {
        uint32_t oh = r % OH;
        uint32_t tmp = r / OH;
        uint32_t od = tmp % OD;
        uint32_t n = tmp / OD;

        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> gath = gathBuf.Get<float>();
        LocalTensor<float> xrow = rowBuf.Get<float>();
        LocalTensor<float> wk = wBuf.Get<float>();

        PipeBarrier<PIPE_ALL>();
        Duplicate(acc, 0.0f, CO * owA);

        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        for (uint32_t kd = 0; kd < K; ++kd) {
            int32_t id = SourceIndex(static_cast<int32_t>(od), kd, D);
            if (id < 0) continue;
            for (uint32_t kh = 0; kh < K; ++kh) {
                int32_t ih = SourceIndex(static_cast<int32_t>(oh), kh, H);
                if (ih < 0) continue;

                // Previous vector work must be done before the buffers are refilled.
                PipeBarrier<PIPE_ALL>();
                // Cin input rows x[n, :, id, ih, :], one per channel, D*H*W apart in GM.
                uint64_t src = ((static_cast<uint64_t>(n) * CI * D + id) * H + ih) * W;
                DataCopyExtParams rp{static_cast<uint16_t>(CI), static_cast<uint32_t>(W * sizeof(float)),
                                     static_cast<uint32_t>((D * H * W - W) * sizeof(float)), 0, 0};
                DataCopyPad(xrow, xGm[src], rp, noPad);
                // Weight slice (kd, kh, :, :, :) is contiguous: K * CI * CO floats.
                uint64_t wOff = (static_cast<uint64_t>(kd) * K + kh) * K * CI * CO;
                DataCopyExtParams wp{1, static_cast<uint32_t>(K * CI * CO * sizeof(float)), 0, 0, 0};
                DataCopyPad(wk, wGm[wOff], wp, noPad);
                Handoff<HardEvent::MTE2_S>();

                for (uint32_t kw = 0; kw < K; ++kw) {
                    // Wait for the Axpys of the previous tap before rewriting gath.
                    Handoff<HardEvent::V_S>();
                    bool any = false;
                    for (uint32_t c = 0; c < CI; ++c) {
                        for (uint32_t o = 0; o < OW; ++o) {
                            int32_t iw = SourceIndex(static_cast<int32_t>(o), kw, W);
                            float v = 0.0f;
                            if (iw >= 0) {
                                v = xrow.GetValue(c * iwA + iw);
                                any = true;
                            }
                            gath.SetValue(c * owA + o, v);
                        }
                    }
                    if (!any) continue;
                    Handoff<HardEvent::S_V>();

                    for (uint32_t c = 0; c < CI; ++c) {
                        LocalTensor<float> g = gath[c * owA];
                        uint32_t wBase = (kw * CI + c) * CO;
                        for (uint32_t q = 0; q < CO; ++q) {
                            float wv = wk.GetValue(wBase + q);
                            Axpy(acc[q * owA], g, wv, OW);
                        }
                    }
                }
            }
        }

        // CO rows of OW floats, each OD*OH*OW apart in the output.
        Handoff<HardEvent::V_MTE3>();
        uint64_t dst = ((static_cast<uint64_t>(n) * CO * OD + od) * OH + oh) * OW;
        DataCopyExtParams op{static_cast<uint16_t>(CO), static_cast<uint32_t>(OW * sizeof(float)), 0,
                             static_cast<uint32_t>((OD * OH * OW - OW) * sizeof(float)), 0};
        DataCopyPad(yGm[dst], acc, op);
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> accBuf, gathBuf, rowBuf, wBuf;
    GlobalTensor<float> xGm, wGm, yGm;
    uint32_t N, CI, CO, D, H, W, OD, OH, OW, K;
    int32_t S, P, DL;
    uint32_t iwA, owA;
    uint32_t first, last;
};

extern "C" __global__ __aicore__ void volume_deconv_gather_custom(GM_ADDR x, GM_ADDR weight_t, GM_ADDR y,
                                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    VolumeDeconvGatherKernel op;
    op.Init(x, weight_t, y, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// x: (N, Cin, D, H, W); weight: (Cin, Cout, K, K, K) as stored by ConvTranspose3d.
at::Tensor volume_deconv_gather_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                         const c10::optional<at::Tensor>& bias,
                                         int64_t stride, int64_t padding, int64_t dilation)
{
    TORCH_CHECK(x.dim() == 5 && weight.dim() == 5, "expected 5-D input and weight");
    int64_t k = weight.size(2);
    TORCH_CHECK(weight.size(3) == k && weight.size(4) == k, "cubic kernel expected");
    // Kernel wants taps outermost and Cout innermost: (kd, kh, kw, Cin, Cout).
    at::Tensor wt = weight.permute({2, 3, 4, 0, 1}).contiguous();
    at::Tensor xc = x.contiguous();

    std::vector<int64_t> shape = {x.size(0), weight.size(1)};
    for (int i = 2; i < 5; ++i) {
        shape.push_back((x.size(i) - 1) * stride - 2 * padding + dilation * (k - 1) + 1);
    }
    at::Tensor y = at::empty(shape, x.options());
    EXEC_NPU_CMD(aclnnVolumeDeconvGatherCustom, xc, wt, stride, padding, dilation, y);
    if (bias.has_value() && bias->defined()) {
        y.add_(bias->view({1, -1, 1, 1, 1}));
    }
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("volume_deconv_gather_custom", &volume_deconv_gather_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("volume_deconv_gather_custom", &volume_deconv_gather_impl_npu, "3-D transposed convolution",
          pybind11::arg("x"), pybind11::arg("weight"), pybind11::arg("bias") = pybind11::none(),
          pybind11::arg("stride") = 1, pybind11::arg("padding") = 0, pybind11::arg("dilation") = 1);
}
"""
