project_json_src='''
[
    {
        "op": "ConvTranspose2dGeluGroupNormCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "weight", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "bias", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "gamma", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "beta", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "num_groups", "param_type": "required", "type": "int"},
            {"name": "eps", "param_type": "optional", "type": "float", "default_value": "1e-5"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvTranspose2dGeluGroupNormCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inC);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outC);
  TILING_DATA_FIELD_DEF(uint32_t, kSize);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, outWAlign);
  TILING_DATA_FIELD_DEF(uint32_t, numGroups);
  TILING_DATA_FIELD_DEF(uint32_t, chPerGroup);
  TILING_DATA_FIELD_DEF(uint32_t, totalPairs);
  TILING_DATA_FIELD_DEF(uint32_t, pairsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, normChunk);
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTranspose2dGeluGroupNormCustom, ConvTranspose2dGeluGroupNormCustomTilingData)
}
"""

host_operator_src="""
#include "conv_transpose2d_gelu_group_norm_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvTranspose2dGeluGroupNormCustomTilingData td;
    auto xs = context->GetInputShape(0)->GetStorageShape();
    auto ws = context->GetInputShape(1)->GetStorageShape();   // [Cin, Cout, K, K]
    auto attrs = context->GetAttrs();
    uint32_t groups = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    float eps = *attrs->GetAttrPointer<float>(1);

    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t cout = ws.GetDim(1), k = ws.GetDim(2);
    uint32_t oh = h + k - 1, ow = w + k - 1;     // stride 1, no padding
    uint32_t owa = (ow + 7) / 8 * 8;
    if (owa - w > 8 || groups == 0 || cout % groups != 0) {
        return ge::GRAPH_FAILED;                 // pad range of DataCopyPad is 32B
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t pairs = n * groups;
    uint32_t per = (pairs + cores - 1) / cores;
    uint32_t used = (pairs + per - 1) / per;

    td.set_batch(n); td.set_inC(cin); td.set_inH(h); td.set_inW(w);
    td.set_outC(cout); td.set_kSize(k); td.set_outH(oh); td.set_outW(ow); td.set_outWAlign(owa);
    td.set_numGroups(groups); td.set_chPerGroup(cout / groups);
    td.set_totalPairs(pairs); td.set_pairsPerCore(per);
    td.set_normChunk(8192);
    td.set_eps(eps);

    context->SetBlockDim(used);
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
    const gert::Shape* x = context->GetInputShape(0);
    const gert::Shape* w = context->GetInputShape(1);
    gert::Shape* y = context->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1));
    y->SetDim(2, x->GetDim(2) + w->GetDim(2) - 1);
    y->SetDim(3, x->GetDim(3) + w->GetDim(3) - 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvTranspose2dGeluGroupNormCustom : public OpDef {
public:
    explicit ConvTranspose2dGeluGroupNormCustom(const char* name) : OpDef(name)
    {
        const char* ins[] = {"x", "weight", "bias", "gamma", "beta"};
        for (auto nm : ins) {
            this->Input(nm).ParamType(REQUIRED).DataType({ge::DT_FLOAT})
                .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        }
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("num_groups").Int();
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ConvTranspose2dGeluGroupNormCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr float GELU_K = -1.5957691216057308f;   // -2*sqrt(2/pi)
constexpr float GELU_C = 0.044715f;

class KernelConvTGeluGN {
public:
    __aicore__ inline KernelConvTGeluGN() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                const ConvTranspose2dGeluGroupNormCustomTilingData& t)
    {
        td = t;
        K = t.kSize; OWA = t.outWAlign; cpg = t.chPerGroup;
        pairBeg = GetBlockIdx() * t.pairsPerCore;
        pairEnd = pairBeg + t.pairsPerCore;
        if (pairEnd > t.totalPairs) pairEnd = t.totalPairs;

        xGm.SetGlobalBuffer((__gm__ float*)x);
        wGm.SetGlobalBuffer((__gm__ float*)w);
        bGm.SetGlobalBuffer((__gm__ float*)b);
        gGm.SetGlobalBuffer((__gm__ float*)gamma);
        betaGm.SetGlobalBuffer((__gm__ float*)beta);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        pipe.InitBuffer(rowQ, BUFFER_NUM, K * K * OWA * sizeof(float));
        pipe.InitBuffer(accQ, BUFFER_NUM, cpg * OWA * sizeof(float));
        pipe.InitBuffer(tmpBuf, cpg * OWA * sizeof(float));
        pipe.InitBuffer(statBuf, 2 * OWA * sizeof(float));
        pipe.InitBuffer(redBuf, 64 * sizeof(float));
        pipe.InitBuffer(wBuf, t.inC * cpg * K * K * sizeof(float));
        pipe.InitBuffer(nInQ, BUFFER_NUM, t.normChunk * sizeof(float));
        pipe.InitBuffer(nOutQ, BUFFER_NUM, t.normChunk * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t p = pairBeg; p < pairEnd; ++p) {
            uint32_t n = p / td.numGroups;
            uint32_t g = p % td.numGroups;
            LoadGroupWeights(g);
            float mean, rstd;
            ConvGeluPass(n, g, mean, rstd);
            PipeBarrier<PIPE_ALL>();      // y of this group must land before we re-read it
            NormPass(n, g, mean, rstd);
            PipeBarrier<PIPE_ALL>();
        }
    }

private:
    // weight layout [Cin, Cout, K, K]; pack the group's slice as [ci][co][kh][kw]
    __aicore__ inline void LoadGroupWeights(uint32_t g)
    {
        LocalTensor<float> wl = wBuf.Get<float>();
        uint32_t kk = K * K;
        DataCopyExtParams cp{(uint16_t)td.inC, (uint32_t)(cpg * kk * sizeof(float)),
                             (uint32_t)((td.outC - cpg) * kk * sizeof(float)), 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(wl, wGm[g * cpg * kk], cp, pad);
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(ev);
        WaitFlag<HardEvent::MTE2_S>(ev);
    }

    __aicore__ inline void ConvGeluPass(uint32_t n, uint32_t g, float& mean, float& rstd)
    {
        LocalTensor<float> wl = wBuf.Get<float>();
        LocalTensor<float> stat = statBuf.Get<float>();
        LocalTensor<float> sumV = stat;
        LocalTensor<float> sqV = stat[OWA];
        Duplicate(stat, 0.0f, 2 * OWA);
        uint32_t kk = K * K;
        uint64_t planeIn = (uint64_t)td.inH * td.inW;
        uint64_t planeOut = (uint64_t)td.outH * td.outW;

        for (uint32_t oy = 0; oy < td.outH; ++oy) {
            LocalTensor<float> acc = accQ.AllocTensor<float>();
            Duplicate(acc, 0.0f, cpg * OWA);
            // rows of x that hit output row oy: iy = oy - kh
            uint32_t khLo = (oy >= td.inH) ? (oy - td.inH + 1) : 0;
            uint32_t khHi = (oy < K - 1) ? oy : (K - 1);

            for (uint32_t ci = 0; ci < td.inC; ++ci) {
                LocalTensor<float> rowsL = rowQ.AllocTensor<float>();
                uint64_t base = ((uint64_t)n * td.inC + ci) * planeIn;
                for (uint32_t kh = khLo; kh <= khHi; ++kh) {
                    uint32_t iy = oy - kh;
                    for (uint32_t kw = 0; kw < K; ++kw) {
                        // zero-pad on the left by kw => lane ox holds x[iy][ox-kw]
                        DataCopyExtParams cp{1, (uint32_t)(td.inW * sizeof(float)), 0, 0, 0};
                        DataCopyPadExtParams<float> pad{true, (uint8_t)kw,
                                                        (uint8_t)(OWA - td.inW - kw), 0.0f};
                        DataCopyPad(rowsL[(kh * K + kw) * OWA], xGm[base + (uint64_t)iy * td.inW], cp, pad);
                    }
                }
                rowQ.EnQue(rowsL);
                rowsL = rowQ.DeQue<float>();
                for (uint32_t co = 0; co < cpg; ++co) {
                    uint32_t wOff = (ci * cpg + co) * kk;
                    for (uint32_t kh = khLo; kh <= khHi; ++kh) {
                        for (uint32_t kw = 0; kw < K; ++kw) {
                            float wv = wl.GetValue(wOff + kh * K + kw);
                            Axpy(acc[co * OWA], rowsL[(kh * K + kw) * OWA], wv, OWA);
                        }
                    }
                }
                rowQ.FreeTensor(rowsL);
            }

            for (uint32_t co = 0; co < cpg; ++co) {
                Adds(acc[co * OWA], acc[co * OWA], bGm.GetValue(g * cpg + co), OWA);
            }
            Gelu(acc, cpg * OWA);
            // per-lane running sums, tail lanes are dropped at the end
            LocalTensor<float> tmp = tmpBuf.Get<float>();
            Mul(tmp, acc, acc, cpg * OWA);
            for (uint32_t co = 0; co < cpg; ++co) {
                Add(sumV, sumV, acc[co * OWA], OWA);
                Add(sqV, sqV, tmp[co * OWA], OWA);
            }
            accQ.EnQue(acc);
            acc = accQ.DeQue<float>();
            uint64_t dst = ((uint64_t)n * td.outC + g * cpg) * planeOut + (uint64_t)oy * td.outW;
            DataCopyExtParams st{(uint16_t)cpg, (uint32_t)(td.outW * sizeof(float)), 0,
                                 (uint32_t)((planeOut - td.outW) * sizeof(float)), 0};
            DataCopyPad(yGm[dst], acc, st);
            accQ.FreeTensor(acc);
        }

        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        ReduceSum(red, sumV, tmp, td.outW);
        ReduceSum(red[8], sqV, tmp, td.outW);
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
        float cnt = (float)cpg * (float)planeOut;
        mean = red.GetValue(0) / cnt;
        float var = red.GetValue(8) / cnt - mean * mean;
        if (var < 0.0f) var = 0.0f;
        // 1/sqrt on the scalar side via a one-lane vector op
        red.SetValue(16, var + td.eps);
        event_t ev2 = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev2);
        WaitFlag<HardEvent::S_V>(ev2);
        Rsqrt(red[24], red[16], 1);
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
        rstd = red.GetValue(24);
    }

    // gelu (tanh form): x / (1 + exp(-2*sqrt(2/pi)*(x + c*x^3)))
    __aicore__ inline void Gelu(const LocalTensor<float>& x, uint32_t len)
    {
        LocalTensor<float> t = tmpBuf.Get<float>();
        Mul(t, x, x, len);
        Muls(t, t, GELU_C, len);
        Adds(t, t, 1.0f, len);
        Mul(t, t, x, len);
        Muls(t, t, GELU_K, len);
        Exp(t, t, len);
        Adds(t, t, 1.0f, len);
        Div(x, x, t, len);
    }

    __aicore__ inline void NormPass(uint32_t n, uint32_t g, float mean, float rstd)
    {
        uint64_t plane = (uint64_t)td.outH * td.outW;
        uint32_t chunk = td.normChunk;
        for (uint32_t co = 0; co < cpg; ++co) {
            uint32_t c = g * cpg + co;
            float scale = rstd * gGm.GetValue(c);
            float shift = betaGm.GetValue(c) - mean * scale;
            uint64_t base = ((uint64_t)n * td.outC + c) * plane;
            for (uint64_t off = 0; off < plane; off += chunk) {
                uint32_t len = (plane - off < chunk) ? (uint32_t)(plane - off) : chunk;
                LocalTensor<float> in = nInQ.AllocTensor<float>();
                DataCopyExtParams cp{1, (uint32_t)(len * sizeof(float)), 0, 0, 0};
                DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
                DataCopyPad(in, yGm[base + off], cp, pad);
                nInQ.EnQue(in);
                in = nInQ.DeQue<float>();
                LocalTensor<float> out = nOutQ.AllocTensor<float>();
                Muls(out, in, scale, len);
                Adds(out, out, shift, len);
                nInQ.FreeTensor(in);
                nOutQ.EnQue(out);
                out = nOutQ.DeQue<float>();
                DataCopyPad(yGm[base + off], out, cp);
                nOutQ.FreeTensor(out);
            }
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> rowQ, nInQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> accQ, nOutQ;
    TBuf<TPosition::VECCALC> tmpBuf, statBuf, redBuf, wBuf;
    GlobalTensor<float> xGm, wGm, bGm, gGm, betaGm, yGm;
    ConvTranspose2dGeluGroupNormCustomTilingData td;
    uint32_t K, OWA, cpg, pairBeg, pairEnd;
};

extern "C" __global__ __aicore__ void conv_transpose2d_gelu_group_norm_custom(
    GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
    GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelConvTGeluGN op;
    op.Init(x, weight, bias, gamma, beta, y, tilingData);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv_transpose2d_gelu_group_norm_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                     const at::Tensor& bias, const at::Tensor& gamma,
                                                     const at::Tensor& beta, int64_t num_groups, double eps)
{
    int64_t k = weight.size(2);
    at::Tensor y = at::empty({x.size(0), weight.size(1), x.size(2) + k - 1, x.size(3) + k - 1}, x.options());
    EXEC_NPU_CMD(aclnnConvTranspose2dGeluGroupNormCustom, x, weight, bias, gamma, beta, num_groups, eps, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transpose2d_gelu_group_norm_custom", &conv_transpose2d_gelu_group_norm_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transpose2d_gelu_group_norm_custom", &conv_transpose2d_gelu_group_norm_impl_npu,
          "conv_transpose2d(stride 1) -> gelu -> group_norm",
          py::arg("x"), py::arg("weight"), py::arg("bias"), py::arg("gamma"), py::arg("beta"),
          py::arg("num_groups"), py::arg("eps") = 1e-5);
}
"""
