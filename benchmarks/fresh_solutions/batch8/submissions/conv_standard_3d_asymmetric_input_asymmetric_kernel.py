project_json_src='''
[
    {
        "op": "VolumetricConvDirectCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "w_packed",
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
            {"name": "dilation", "param_type": "optional", "type": "listInt", "default_value": [1, 1, 1]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(VolumetricConvTiling)
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, cIn);
  TILING_DATA_FIELD_DEF(uint32_t, cOut);
  TILING_DATA_FIELD_DEF(uint32_t, d);
  TILING_DATA_FIELD_DEF(uint32_t, h);
  TILING_DATA_FIELD_DEF(uint32_t, w);
  TILING_DATA_FIELD_DEF(uint32_t, kd);
  TILING_DATA_FIELD_DEF(uint32_t, kh);
  TILING_DATA_FIELD_DEF(uint32_t, kw);
  TILING_DATA_FIELD_DEF(uint32_t, dd);
  TILING_DATA_FIELD_DEF(uint32_t, dh);
  TILING_DATA_FIELD_DEF(uint32_t, dw);
  TILING_DATA_FIELD_DEF(uint32_t, od);
  TILING_DATA_FIELD_DEF(uint32_t, oh);
  TILING_DATA_FIELD_DEF(uint32_t, ow);
  TILING_DATA_FIELD_DEF(uint32_t, owPad);       // ow rounded to 8 floats
  TILING_DATA_FIELD_DEF(uint32_t, totalRows);   // n * od * oh
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(VolumetricConvDirectCustom, VolumetricConvTiling)
}
"""

host_operator_src="""
#include "volumetric_conv_direct_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* ctx)
{
    VolumetricConvTiling tl;
    const gert::Shape& xs = ctx->GetInputShape(0)->GetStorageShape();   // (N, Cin, D, H, W), already padded
    const gert::Shape& ws = ctx->GetInputShape(1)->GetStorageShape();   // (Cin, KD, KH, KW, Cout)

    uint32_t dil[3] = {1, 1, 1};
    const gert::RuntimeAttrs* attrs = ctx->GetAttrs();
    if (attrs != nullptr) {
        const gert::ContinuousVector* dv = attrs->GetAttrPointer<gert::ContinuousVector>(0);
        if (dv != nullptr && dv->GetSize() == 3) {
            const int64_t* p = reinterpret_cast<const int64_t*>(dv->GetData());
            for (int i = 0; i < 3; ++i) dil[i] = static_cast<uint32_t>(p[i]);
        }
    }

    uint32_t n = xs.GetDim(0), ci = xs.GetDim(1), d = xs.GetDim(2), h = xs.GetDim(3), w = xs.GetDim(4);
    uint32_t kd = ws.GetDim(1), kh = ws.GetDim(2), kw = ws.GetDim(3), co = ws.GetDim(4);
    int64_t od = static_cast<int64_t>(d) - static_cast<int64_t>(dil[0]) * (kd - 1);
    int64_t oh = static_cast<int64_t>(h) - static_cast<int64_t>(dil[1]) * (kh - 1);
    int64_t ow = static_cast<int64_t>(w) - static_cast<int64_t>(dil[2]) * (kw - 1);
    if (od <= 0 || oh <= 0 || ow <= 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t owPad = (static_cast<uint32_t>(ow) + 7U) / 8U * 8U;

    // UB: accumulator (Cout rows) + two staged depth planes (KH*KW shifted rows each,
    // double buffered) + the weight slice of one input channel.
    uint64_t ubBytes = (static_cast<uint64_t>(co) * owPad + 2ULL * kh * kw * owPad +
                        static_cast<uint64_t>(kd) * kh * kw * co) * sizeof(float);
    if (ubBytes > 184 * 1024) {
        return ge::GRAPH_FAILED;
    }

    uint32_t rows = n * static_cast<uint32_t>(od) * static_cast<uint32_t>(oh);
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores == 0) cores = 1;
    uint32_t per = (rows + cores - 1) / cores;
    uint32_t blocks = (rows + per - 1) / per;

    tl.set_n(n); tl.set_cIn(ci); tl.set_cOut(co);
    tl.set_d(d); tl.set_h(h); tl.set_w(w);
    tl.set_kd(kd); tl.set_kh(kh); tl.set_kw(kw);
    tl.set_dd(dil[0]); tl.set_dh(dil[1]); tl.set_dw(dil[2]);
    tl.set_od(static_cast<uint32_t>(od));
    tl.set_oh(static_cast<uint32_t>(oh));
    tl.set_ow(static_cast<uint32_t>(ow));
    tl.set_owPad(owPad);
    tl.set_totalRows(rows);
    tl.set_rowsPerCore(per);

    ctx->SetBlockDim(blocks);
    tl.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(tl.GetDataSize());
    size_t* wsz = ctx->GetWorkspaceSizes(1);
    wsz[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* ctx)
{
    const gert::Shape* xs = ctx->GetInputShape(0);
    const gert::Shape* ws = ctx->GetInputShape(1);
    int64_t dil[3] = {1, 1, 1};
    const gert::RuntimeAttrs* attrs = ctx->GetAttrs();
    if (attrs != nullptr) {
        const gert::ContinuousVector* dv = attrs->GetAttrPointer<gert::ContinuousVector>(0);
        if (dv != nullptr && dv->GetSize() == 3) {
            const int64_t* p = reinterpret_cast<const int64_t*>(dv->GetData());
            for (int i = 0; i < 3; ++i) dil[i] = p[i];
        }
    }
    gert::Shape* ys = ctx->GetOutputShape(0);
    ys->SetDimNum(5);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(4));
    for (int i = 0; i < 3; ++i) {
        ys->SetDim(2 + i, xs->GetDim(2 + i) - dil[i] * (ws->GetDim(1 + i) - 1));
    }
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class VolumetricConvDirectCustom : public OpDef {
public:
    explicit VolumetricConvDirectCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("w_packed")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("dilation").AttrType(OPTIONAL).ListInt({1, 1, 1});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(VolumetricConvDirectCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

// Direct (valid, stride 1) 3-D convolution on the vector unit.
// Work item = one output row y[n, :, z, r, :] for all output channels.
// For every input channel and depth tap the KH*KW input rows shifted by each width
// tap are DMA'd into 32B-aligned UB rows (the GM side may be unaligned), so every
// tap becomes an Axpy over a whole output row:
//     acc[co, :] += w[ci, a, b, c, co] * x[n, ci, z + a*dd, r + b*dh, c*dw : c*dw + OW]
// The weight is packed on the host as (Cin, KD, KH, KW, Cout).
class VolumetricConvKernel {
public:
    __aicore__ inline VolumetricConvKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR wp, GM_ADDR y, const VolumetricConvTiling& t)
    {
        N = t.n; CI = t.cIn; CO = t.cOut;
        D = t.d; H = t.h; W = t.w;
        KD = t.kd; KH = t.kh; KW = t.kw;
        DD = t.dd; DH = t.dh; DW = t.dw;
        OD = t.od; OH = t.oh; OW = t.ow; OWP = t.owPad;

        rowLo = GetBlockIdx() * t.rowsPerCore;
        rowHi = rowLo + t.rowsPerCore;
        if (rowHi > t.totalRows) rowHi = t.totalRows;

        xGm.SetGlobalBuffer((__gm__ float*)x, static_cast<uint64_t>(N) * CI * D * H * W);
        wGm.SetGlobalBuffer((__gm__ float*)wp, static_cast<uint64_t>(CI) * KD * KH * KW * CO);
        yGm.SetGlobalBuffer((__gm__ float*)y, static_cast<uint64_t>(N) * CO * OD * OH * OW);

        tapsPerPlane = KH * KW;
        pipe.InitBuffer(planeQ, 2, tapsPerPlane * OWP * sizeof(float));
        pipe.InitBuffer(accBuf, CO * OWP * sizeof(float));
        pipe.InitBuffer(wBuf, KD * KH * KW * CO * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t row = rowLo; row < rowHi; ++row) {
            uint32_t r = row % OH;
            uint32_t z = (row / OH) % OD;
            uint32_t n = row / (OH * OD);
            ComputeRow(n, z, r);
        }
    }

private:
    // Stage the KH*KW shifted input rows of (n, ci, plane) into one UB block.
    __aicore__ inline void LoadPlane(uint32_t n, uint32_t ci, uint32_t plane, uint32_t r)
    {
        LocalTensor<float> blk = planeQ.AllocTensor<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(OW * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        uint64_t chanBase = (static_cast<uint64_t>(n) * CI + ci) * D * H * W +
                            static_cast<uint64_t>(plane) * H * W;
        for (uint32_t b = 0; b < KH; ++b) {
            uint64_t lineBase = chanBase + static_cast<uint64_t>(r + b * DH) * W;
            for (uint32_t c = 0; c < KW; ++c) {
                DataCopyPad(blk[(b * KW + c) * OWP], xGm[lineBase + c * DW], cp, noPad);
            }
        }
        planeQ.EnQue(blk);
    }

    __aicore__ inline void ComputeRow(uint32_t n, uint32_t z, uint32_t r)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> wl = wBuf.Get<float>();

        PipeBarrier<PIPE_ALL>();
        Duplicate(acc, 0.0f, CO * OWP);

        uint32_t sliceLen = KD * KH * KW * CO;
        for (uint32_t ci = 0; ci < CI; ++ci) {
            // Weight slice of this input channel; scalar reads need MTE2 -> S ordering.
            PipeBarrier<PIPE_ALL>();
            DataCopyExtParams wcp{1, static_cast<uint32_t>(sliceLen * sizeof(float)), 0, 0, 0};
            DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
            DataCopyPad(wl, wGm[static_cast<uint64_t>(ci) * sliceLen], wcp, noPad);
            event_t evW = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
            SetFlag<HardEvent::MTE2_S>(evW);
            WaitFlag<HardEvent::MTE2_S>(evW);

            // Prefetch plane 0; inside the loop the next plane is issued before computing.
            LoadPlane(n, ci, z, r);
            for (uint32_t a = 0; a < KD; ++a) {
                if (a + 1 < KD) {
                    LoadPlane(n, ci, z + (a + 1) * DD, r);
                }
                LocalTensor<float> blk = planeQ.DeQue<float>();
                for (uint32_t tap = 0; tap < tapsPerPlane; ++tap) {
                    LocalTensor<float> src = blk[tap * OWP];
                    uint32_t wBase = (a * tapsPerPlane + tap) * CO;
                    for (uint32_t co = 0; co < CO; ++co) {
                        Axpy(acc[co * OWP], src, wl.GetValue(wBase + co), OW);
                    }
                }
                planeQ.FreeTensor(blk);
            }
        }

        event_t evO = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE3));
        SetFlag<HardEvent::V_MTE3>(evO);
        WaitFlag<HardEvent::V_MTE3>(evO);
        uint64_t dst = ((static_cast<uint64_t>(n) * CO * OD + z) * OH + r) * OW;
        DataCopyExtParams ocp{static_cast<uint16_t>(CO), static_cast<uint32_t>(OW * sizeof(float)), 0,
                              static_cast<uint32_t>((OD * OH * OW - OW) * sizeof(float)), 0};
        DataCopyPad(yGm[dst], acc, ocp);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, 2> planeQ;
    TBuf<TPosition::VECCALC> accBuf, wBuf;
    GlobalTensor<float> xGm, wGm, yGm;
    uint32_t N, CI, CO, D, H, W, KD, KH, KW, DD, DH, DW, OD, OH, OW, OWP;
    uint32_t tapsPerPlane;
    uint32_t rowLo, rowHi;
};

extern "C" __global__ __aicore__ void volumetric_conv_direct_custom(GM_ADDR x, GM_ADDR w_packed, GM_ADDR y,
                                                                    GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    VolumetricConvKernel kern;
    kern.Init(x, w_packed, y, td);
    kern.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// Conv3d (groups = 1, stride 1). Zero padding is applied here with a pad op so the
// device kernel only handles the valid case; dilation is passed through.
at::Tensor volumetric_conv_direct_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                           const c10::optional<at::Tensor>& bias,
                                           std::vector<int64_t> padding, std::vector<int64_t> dilation)
{
    TORCH_CHECK(x.dim() == 5 && weight.dim() == 5, "expected NCDHW input and OIDHW weight");
    TORCH_CHECK(weight.size(1) == x.size(1), "grouped convolution is not supported");
    TORCH_CHECK(padding.size() == 3 && dilation.size() == 3, "padding/dilation need 3 values");

    at::Tensor xin = x.contiguous();
    if (padding[0] > 0 || padding[1] > 0 || padding[2] > 0) {
        xin = at::constant_pad_nd(xin, {padding[2], padding[2], padding[1], padding[1], padding[0], padding[0]}, 0.0);
    }
    // (Cout, Cin, KD, KH, KW) -> (Cin, KD, KH, KW, Cout)
    at::Tensor wp = weight.permute({1, 2, 3, 4, 0}).contiguous();

    std::vector<int64_t> shape = {x.size(0), weight.size(0)};
    for (int i = 0; i < 3; ++i) {
        shape.push_back(xin.size(2 + i) - dilation[i] * (weight.size(2 + i) - 1));
    }
    at::Tensor y = at::empty(shape, x.options());
    at::IntArrayRef dil(dilation);
    EXEC_NPU_CMD(aclnnVolumetricConvDirectCustom, xin, wp, dil, y);
    if (bias.has_value() && bias->defined()) {
        y.add_(bias->view({1, -1, 1, 1, 1}));
    }
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("volumetric_conv_direct_custom", &volumetric_conv_direct_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("volumetric_conv_direct_custom", &volumetric_conv_direct_impl_npu, "direct 3-D convolution",
          pybind11::arg("x"), pybind11::arg("weight"), pybind11::arg("bias") = pybind11::none(),
          pybind11::arg("padding") = std::vector<int64_t>{0, 0, 0},
          pybind11::arg("dilation") = std::vector<int64_t>{1, 1, 1});
}
"""
