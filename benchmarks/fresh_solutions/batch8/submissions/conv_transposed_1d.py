project_json_src='''
[
    {
        "op": "SignalDeconvCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "w_ikc",
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
            {"name": "padding", "param_type": "optional", "type": "int", "default_value": "0"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SignalDeconvTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, chIn);
  TILING_DATA_FIELD_DEF(uint32_t, chOut);
  TILING_DATA_FIELD_DEF(uint32_t, lenIn);
  TILING_DATA_FIELD_DEF(uint32_t, lenOut);
  TILING_DATA_FIELD_DEF(uint32_t, taps);
  TILING_DATA_FIELD_DEF(int32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, seg);          // output samples per work item (multiple of 8)
  TILING_DATA_FIELD_DEF(uint32_t, ciBlock);      // input channels staged per step
  TILING_DATA_FIELD_DEF(uint32_t, segsPerRow);   // ceil(lenOut / seg)
  TILING_DATA_FIELD_DEF(uint32_t, items);        // batch * segsPerRow
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SignalDeconvCustom, SignalDeconvTilingData)
}
"""

host_operator_src="""
#include "signal_deconv_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t SEG = 128;
constexpr uint32_t UB_BUDGET = 176 * 1024;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    SignalDeconvTilingData td;
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();   // (N, Cin, L)
    const gert::Shape& ws = context->GetInputShape(1)->GetStorageShape();   // (Cin, K, Cout)
    int32_t pad = static_cast<int32_t>(*context->GetAttrs()->GetAttrPointer<int64_t>(0));

    uint32_t n = xs.GetDim(0), ci = xs.GetDim(1), len = xs.GetDim(2);
    uint32_t k = ws.GetDim(1), co = ws.GetDim(2);
    int64_t lout = static_cast<int64_t>(len) - 1 - 2 * pad + k;
    // The left border is handled with DataCopyPad's left padding, at most 8 floats.
    if (lout <= 0 || pad < 0 || static_cast<int32_t>(k) - 1 - pad > 7) {
        return ge::GRAPH_FAILED;
    }

    // Accumulator holds all Cout rows of one segment; pick the largest Cin block that fits.
    uint32_t accBytes = co * SEG * sizeof(float);
    uint32_t ciBlock = 32;
    while (ciBlock > 1 &&
           accBytes + ciBlock * k * (SEG + co) * sizeof(float) > UB_BUDGET) {
        ciBlock >>= 1;
    }
    if (ciBlock > ci) ciBlock = ci;
    if (accBytes + ciBlock * k * (SEG + co) * sizeof(float) > UB_BUDGET) {
        return ge::GRAPH_FAILED;
    }

    uint32_t segs = (static_cast<uint32_t>(lout) + SEG - 1) / SEG;
    uint32_t items = n * segs;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores == 0) cores = 1;
    uint32_t blocks = items < cores ? items : cores;

    td.set_batch(n);
    td.set_chIn(ci);
    td.set_chOut(co);
    td.set_lenIn(len);
    td.set_lenOut(static_cast<uint32_t>(lout));
    td.set_taps(k);
    td.set_pad(pad);
    td.set_seg(SEG);
    td.set_ciBlock(ciBlock);
    td.set_segsPerRow(segs);
    td.set_items(items);

    context->SetBlockDim(blocks);
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
    int64_t pad = *context->GetAttrs()->GetAttrPointer<int64_t>(0);
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(3);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(2));
    ys->SetDim(2, xs->GetDim(2) - 1 - 2 * pad + ws->GetDim(1));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class SignalDeconvCustom : public OpDef {
public:
    explicit SignalDeconvCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("w_ikc")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("padding").AttrType(OPTIONAL).Int(0);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(SignalDeconvCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

// Stride-1 transposed 1-D convolution:
//   y[n, o, t] = sum_{i, k} x[n, i, t + pad - k] * w[i, o, k]
// i.e. a correlation with the flipped kernel. A work item is one segment of SEG output
// samples for all output channels of one batch row. Input channels are processed in
// blocks: for every tap k the block's input rows, shifted by (pad - k), are DMA'd to
// aligned UB rows (zero filled past either border), then each (i, k) pair updates all
// Cout accumulator rows with an Axpy. Weight is packed as (Cin, K, Cout).
class SignalDeconvKernel {
public:
    __aicore__ inline SignalDeconvKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, const SignalDeconvTilingData& td)
    {
        nB = td.batch; cIn = td.chIn; cOut = td.chOut;
        L = td.lenIn; LO = td.lenOut; K = td.taps; pad = td.pad;
        seg = td.seg; cib = td.ciBlock; segsPerRow = td.segsPerRow; items = td.items;

        xGm.SetGlobalBuffer((__gm__ float*)x, static_cast<uint64_t>(nB) * cIn * L);
        wGm.SetGlobalBuffer((__gm__ float*)w, static_cast<uint64_t>(cIn) * K * cOut);
        yGm.SetGlobalBuffer((__gm__ float*)y, static_cast<uint64_t>(nB) * cOut * LO);

        pipe.InitBuffer(accBuf, cOut * seg * sizeof(float));
        pipe.InitBuffer(xsBuf, K * cib * seg * sizeof(float));
        pipe.InitBuffer(wBuf, cib * K * cOut * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t it = GetBlockIdx(); it < items; it += GetBlockNum()) {
            uint32_t n = it / segsPerRow;
            uint32_t t0 = (it - n * segsPerRow) * seg;
            uint32_t cnt = (LO - t0) < seg ? (LO - t0) : seg;
            RunSegment(n, t0, cnt);
        }
    }

private:
    // Fill xs[(k * cib + c) * seg + j] = x[n, ci0 + c, t0 + pad - k + j] (0 outside [0, L)).
    __aicore__ inline void StageInput(uint32_t n, uint32_t ci0, uint32_t nc, uint32_t t0, uint32_t cnt)
    {
        LocalTensor<float> xs = xsBuf.Get<float>();
        for (uint32_t k = 0; k < K; ++k) {
            int64_t s = static_cast<int64_t>(t0) + pad - static_cast<int64_t>(k);
            int64_t jLo = s < 0 ? -s : 0;
            int64_t jHi = static_cast<int64_t>(L) - s;
            if (jHi > cnt) jHi = cnt;
            LocalTensor<float> dst = xs[k * cib * seg];

            bool interior = (jLo == 0) && (jHi == static_cast<int64_t>(cnt)) && (cnt % 8 == 0);
            if (interior) {
                DataCopyExtParams cp{static_cast<uint16_t>(nc), cnt * static_cast<uint32_t>(sizeof(float)),
                                     (L - cnt) * static_cast<uint32_t>(sizeof(float)),
                                     (seg - cnt) / 8, 0};
                DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
                uint64_t src = (static_cast<uint64_t>(n) * cIn + ci0) * L + static_cast<uint64_t>(s);
                DataCopyPad(dst, xGm[src], cp, noPad);
                continue;
            }

            // Border segment: clear the rows first, then drop the valid part in with
            // left padding so the destination row start stays 32B aligned.
            Duplicate(dst, 0.0f, nc * seg);
            if (jHi <= jLo) {
                continue;
            }
            event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE2));
            SetFlag<HardEvent::V_MTE2>(ev);
            WaitFlag<HardEvent::V_MTE2>(ev);

            uint32_t valid = static_cast<uint32_t>(jHi - jLo);
            uint32_t left = static_cast<uint32_t>(jLo);
            uint32_t rowBlocks = (left + valid + 7) / 8;
            uint32_t right = rowBlocks * 8 - left - valid;
            DataCopyExtParams cp{static_cast<uint16_t>(nc), valid * static_cast<uint32_t>(sizeof(float)),
                                 (L - valid) * static_cast<uint32_t>(sizeof(float)),
                                 seg / 8 - rowBlocks, 0};
            DataCopyPadExtParams<float> padp{true, static_cast<uint8_t>(left), static_cast<uint8_t>(right), 0.0f};
            uint64_t src = (static_cast<uint64_t>(n) * cIn + ci0) * L + static_cast<uint64_t>(s + jLo);
            DataCopyPad(dst, xGm[src], cp, padp);
        }
    }

    __aicore__ inline void RunSegment(uint32_t n, uint32_t t0, uint32_t cnt)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> xs = xsBuf.Get<float>();
        LocalTensor<float> wl = wBuf.Get<float>();

        PipeBarrier<PIPE_ALL>();
        Duplicate(acc, 0.0f, cOut * seg);

        for (uint32_t ci0 = 0; ci0 < cIn; ci0 += cib) {
            uint32_t nc = (cIn - ci0) < cib ? (cIn - ci0) : cib;
            // The previous block's Axpys read xs/wl; let them finish before refilling.
            PipeBarrier<PIPE_ALL>();
            StageInput(n, ci0, nc, t0, cnt);
            DataCopyExtParams wcp{1, nc * K * cOut * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
            DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
            DataCopyPad(wl, wGm[static_cast<uint64_t>(ci0) * K * cOut], wcp, noPad);
            PipeBarrier<PIPE_ALL>();

            for (uint32_t c = 0; c < nc; ++c) {
                for (uint32_t k = 0; k < K; ++k) {
                    LocalTensor<float> xr = xs[(k * cib + c) * seg];
                    uint32_t wRow = (c * K + k) * cOut;
                    for (uint32_t o = 0; o < cOut; ++o) {
                        Axpy(acc[o * seg], xr, wl.GetValue(wRow + o), cnt);
                    }
                }
            }
        }

        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE3));
        SetFlag<HardEvent::V_MTE3>(ev);
        WaitFlag<HardEvent::V_MTE3>(ev);
        uint32_t usedBlocks = (cnt + 7) / 8;
        DataCopyExtParams ocp{static_cast<uint16_t>(cOut), cnt * static_cast<uint32_t>(sizeof(float)),
                              seg / 8 - usedBlocks, (LO - cnt) * static_cast<uint32_t>(sizeof(float)), 0};
        DataCopyPad(yGm[static_cast<uint64_t>(n) * cOut * LO + t0], acc, ocp);
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> accBuf, xsBuf, wBuf;
    GlobalTensor<float> xGm, wGm, yGm;
    uint32_t nB, cIn, cOut, L, LO, K;
    int32_t pad;
    uint32_t seg, cib, segsPerRow, items;
};

extern "C" __global__ __aicore__ void signal_deconv_custom(GM_ADDR x, GM_ADDR w_ikc, GM_ADDR y,
                                                           GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    SignalDeconvKernel kernel;
    kernel.Init(x, w_ikc, y, td);
    kernel.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// x: (N, Cin, L), weight: (Cin, Cout, K) as stored by ConvTranspose1d (groups = 1, stride 1).
at::Tensor signal_deconv_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                  const c10::optional<at::Tensor>& bias, int64_t padding)
{
    TORCH_CHECK(x.dim() == 3 && weight.dim() == 3, "expected (N, Cin, L) input and (Cin, Cout, K) weight");
    TORCH_CHECK(x.size(1) == weight.size(0), "channel mismatch");
    at::Tensor xc = x.contiguous();
    at::Tensor wp = weight.permute({0, 2, 1}).contiguous();   // (Cin, K, Cout)
    int64_t lout = x.size(2) - 1 - 2 * padding + weight.size(2);
    at::Tensor y = at::empty({x.size(0), weight.size(1), lout}, x.options());
    EXEC_NPU_CMD(aclnnSignalDeconvCustom, xc, wp, padding, y);
    if (bias.has_value() && bias->defined()) {
        y.add_(bias->view({1, -1, 1}));
    }
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("signal_deconv_custom", &signal_deconv_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("signal_deconv_custom", &signal_deconv_impl_npu, "stride-1 transposed 1-D convolution",
          pybind11::arg("x"), pybind11::arg("weight"), pybind11::arg("bias") = pybind11::none(),
          pybind11::arg("padding") = 0);
}
"""
