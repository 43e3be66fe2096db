project_json_src='''
[
    {
        "op": "GruBirectionalCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "gi", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "gh", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "h", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "h_new", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GruBirectionalCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);        // directions * batch
  TILING_DATA_FIELD_DEF(uint32_t, hidden);      // H
  TILING_DATA_FIELD_DEF(uint32_t, hiddenPad);   // H rounded up to 8 floats for UB layout
  TILING_DATA_FIELD_DEF(uint32_t, coreNum);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GruBirectionalCustom, GruBirectionalCustomTilingData)
}
"""

host_operator_src="""
#include "gru_birectional_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    // h: [rows, H], gi/gh: [rows, 3H]
    const gert::Shape &hs = context->GetInputShape(2)->GetStorageShape();
    uint32_t hidden = static_cast<uint32_t>(hs.GetDim(hs.GetDimNum() - 1));
    uint32_t rows = static_cast<uint32_t>(hs.GetShapeSize() / hidden);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    cores = cores > rows ? rows : cores;
    cores = cores == 0 ? 1 : cores;

    GruBirectionalCustomTilingData td;
    td.set_rows(rows);
    td.set_hidden(hidden);
    td.set_hiddenPad((hidden + 7) / 8 * 8);
    td.set_coreNum(cores);
    context->SetBlockDim(cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(2);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(2));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class GruBirectionalCustom : public OpDef {
public:
    explicit GruBirectionalCustom(const char* name) : OpDef(name)
    {
        this->Input("gi").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("gh").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("h").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("h_new").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(GruBirectionalCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

// One GRU time step for a stack of rows (both directions x batch), gate order r | z | n:
//   r  = sigmoid(gi_r + gh_r)
//   z  = sigmoid(gi_z + gh_z)
//   n  = tanh(gi_n + r * gh_n)
//   h' = (1 - z) * n + z * h = n + z * (h - n)
// gi already contains b_ih, gh already contains b_hh (both produced by GEMMs on the host side).
class GruCellKernel {
public:
    __aicore__ inline GruCellKernel() {}

    __aicore__ inline void Init(GM_ADDR gi, GM_ADDR gh, GM_ADDR h, GM_ADDR hNew,
                                uint32_t rows, uint32_t hidden, uint32_t hiddenPad, uint32_t cores)
    {
        H = hidden;
        Hp = hiddenPad;
        uint32_t id = GetBlockIdx();
        uint32_t per = rows / cores, rem = rows % cores;
        r0 = id * per + (id < rem ? id : rem);
        nr = per + (id < rem ? 1 : 0);

        giGm.SetGlobalBuffer((__gm__ float *)gi);
        ghGm.SetGlobalBuffer((__gm__ float *)gh);
        hGm.SetGlobalBuffer((__gm__ float *)h);
        outGm.SetGlobalBuffer((__gm__ float *)hNew);

        // gate blocks are stored at Hp-aligned offsets inside UB
        pipe.InitBuffer(giQ, 2, 3 * Hp * sizeof(float));
        pipe.InitBuffer(ghQ, 2, 3 * Hp * sizeof(float));
        pipe.InitBuffer(hQ, 2, Hp * sizeof(float));
        pipe.InitBuffer(outQ, 2, Hp * sizeof(float));
        pipe.InitBuffer(work, 2 * Hp * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < nr; ++i) {
            CopyIn(r0 + i);
            Compute();
            CopyOut(r0 + i);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t row)
    {
        LocalTensor<float> a = giQ.AllocTensor<float>();
        LocalTensor<float> b = ghQ.AllocTensor<float>();
        LocalTensor<float> c = hQ.AllocTensor<float>();
        // three gate slices land on Hp boundaries (dstStride pads each slice up to 32B)
        uint32_t padBlocks = (Hp - H) * sizeof(float) / 32;
        DataCopyExtParams g3{3, static_cast<uint32_t>(H * sizeof(float)), 0, padBlocks, 0};
        DataCopyExtParams g1{1, static_cast<uint32_t>(H * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pz{false, 0, 0, 0.0f};
        DataCopyPad(a, giGm[(uint64_t)row * 3 * H], g3, pz);
        DataCopyPad(b, ghGm[(uint64_t)row * 3 * H], g3, pz);
        DataCopyPad(c, hGm[(uint64_t)row * H], g1, pz);
        giQ.EnQue(a);
        ghQ.EnQue(b);
        hQ.EnQue(c);
    }

    __aicore__ inline void SigmoidInPlace(LocalTensor<float> &t, uint32_t n)
    {
        Muls(t, t, -1.0f, n);
        Exp(t, t, n);
        Adds(t, t, 1.0f, n);
        Reciprocal(t, t, n);
    }

    __aicore__ inline void Compute()
    {
        LocalTensor<float> gi = giQ.DeQue<float>();
        LocalTensor<float> gh = ghQ.DeQue<float>();
        LocalTensor<float> h = hQ.DeQue<float>();
        LocalTensor<float> o = outQ.AllocTensor<float>();
        LocalTensor<float> tmp = work.Get<float>();
        uint32_t n2 = 2 * Hp;

        // r and z together: they are adjacent in both gi and gh
        LocalTensor<float> rz = tmp;
        Add(rz, gi, gh, n2);
        SigmoidInPlace(rz, n2);
        LocalTensor<float> r = rz;
        LocalTensor<float> z = rz[Hp];

        // n = tanh(gi_n + r * gh_n), tanh(x) = 2 / (1 + exp(-2x)) - 1
        LocalTensor<float> nGate = gh[2 * Hp];        // reuse gh_n storage
        Mul(nGate, r, nGate, H);
        Add(nGate, nGate, gi[2 * Hp], H);
        Muls(nGate, nGate, -2.0f, H);
        Exp(nGate, nGate, H);
        Adds(nGate, nGate, 1.0f, H);
        Reciprocal(nGate, nGate, H);
        Muls(nGate, nGate, 2.0f, H);
        Adds(nGate, nGate, -1.0f, H);

        // h' = n + z * (h - n)
        Sub(o, h, nGate, H);
        Mul(o, o, z, H);
        Add(o, o, nGate, H);

        outQ.EnQue(o);
        giQ.FreeTensor(gi);
        ghQ.FreeTensor(gh);
        hQ.FreeTensor(h);
    }

    __aicore__ inline void CopyOut(uint32_t row)
    {
        LocalTensor<float> o = outQ.DeQue<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(H * sizeof(float)), 0, 0, 0};
        DataCopyPad(outGm[(uint64_t)row * H], o, cp);
        outQ.FreeTensor(o);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> giQ, ghQ, hQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<TPosition::VECCALC> work;
    GlobalTensor<float> giGm, ghGm, hGm, outGm;
    uint32_t H = 0, Hp = 0, r0 = 0, nr = 0;
};

extern "C" __global__ __aicore__ void gru_birectional_custom(GM_ADDR gi, GM_ADDR gh, GM_ADDR h, GM_ADDR h_new,
                                                             GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GruCellKernel op;
    op.Init(gi, gh, h, h_new, td.rows, td.hidden, td.hiddenPad, td.coreNum);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <vector>

// single fused GRU step for [rows, *] stacked states
at::Tensor gru_birectional_custom_impl_npu(const at::Tensor& gi, const at::Tensor& gh, const at::Tensor& h)
{
    at::Tensor gic = gi.contiguous();
    at::Tensor ghc = gh.contiguous();
    at::Tensor hc = h.contiguous();
    at::Tensor out = at::empty_like(hc);
    EXEC_NPU_CMD(aclnnGruBirectionalCustom, gic, ghc, hc, out);
    return out;
}

// Full bidirectional multi-layer GRU (batch_first = false).
// weights: per layer, forward then reverse, each as (w_ih, w_hh, b_ih, b_hh).
at::Tensor gru_birectional_forward(const at::Tensor& x, const at::Tensor& h0,
                                   const std::vector<at::Tensor>& weights, int64_t num_layers)
{
    const int64_t T = x.size(0);
    const int64_t B = x.size(1);
    const int64_t H = h0.size(2);
    at::Tensor layerIn = x.contiguous();

    for (int64_t l = 0; l < num_layers; ++l) {
        const at::Tensor& wihF = weights[l * 8 + 0];
        const at::Tensor& whhF = weights[l * 8 + 1];
        const at::Tensor& bihF = weights[l * 8 + 2];
        const at::Tensor& bhhF = weights[l * 8 + 3];
        const at::Tensor& wihB = weights[l * 8 + 4];
        const at::Tensor& whhB = weights[l * 8 + 5];
        const at::Tensor& bihB = weights[l * 8 + 6];
        const at::Tensor& bhhB = weights[l * 8 + 7];

        // input projections for every time step at once: [T, B, 3H]
        at::Tensor giF = at::linear(layerIn, wihF, bihF);
        at::Tensor giB = at::linear(layerIn, wihB, bihB);

        // recurrent weights of both directions batched: [2, H, 3H], biases [2, 1, 3H]
        at::Tensor whhT = at::stack({whhF.t(), whhB.t()}, 0).contiguous();
        at::Tensor bhh = at::stack({bhhF, bhhB}, 0).unsqueeze(1).contiguous();

        at::Tensor h = h0.slice(0, 2 * l, 2 * l + 2).contiguous();   // [2, B, H]
        std::vector<at::Tensor> outF(T), outB(T);
        for (int64_t s = 0; s < T; ++s) {
            int64_t tb = T - 1 - s;
            at::Tensor gi = at::stack({giF[s], giB[tb]}, 0);         // [2, B, 3H]
            at::Tensor gh = at::baddbmm(bhh, h, whhT);                // [2, B, 3H]
            h = gru_birectional_custom_impl_npu(gi.view({2 * B, 3 * H}),
                                                gh.view({2 * B, 3 * H}),
                                                h.view({2 * B, H})).view({2, B, H});
            outF[s] = h[0];
            outB[tb] = h[1];
        }
        layerIn = at::cat({at::stack(outF, 0), at::stack(outB, 0)}, 2).contiguous();  // [T, B, 2H]
    }
    return layerIn;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("gru_birectional_custom", &gru_birectional_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("gru_birectional_custom", &gru_birectional_custom_impl_npu, "fused GRU cell step");
    m.def("gru_birectional_forward", &gru_birectional_forward, "bidirectional multi-layer GRU");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib

batch_size = 10


class ModelNew(nn.Module):
    def __init__(self, input_size, hidden_size, num_layers=3, bias=True, batch_first=False):
        super(ModelNew, self).__init__()
        self.gru = nn.GRU(input_size, hidden_size, num_layers, bias, batch_first, dropout=0, bidirectional=True)
        # kept so parameter / RNG state matches the reference model
        self.h0 = torch.randn((num_layers * 2, batch_size, hidden_size))
        self.num_layers = num_layers

    def _weights(self):
        ws = []
        for l in range(self.num_layers):
            for sfx in ("", "_reverse"):
                ws.append(getattr(self.gru, f"weight_ih_l{l}{sfx}"))
                ws.append(getattr(self.gru, f"weight_hh_l{l}{sfx}"))
                ws.append(getattr(self.gru, f"bias_ih_l{l}{sfx}"))
                ws.append(getattr(self.gru, f"bias_hh_l{l}{sfx}"))
        return ws

    def forward(self, x, h0):
        return custom_ops_lib.gru_birectional_forward(x, h0.to(x.device), self._weights(), self.num_layers)
'''
