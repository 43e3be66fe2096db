project_json_src='''
[
    {
        "op": "GruBirectionalCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "gi", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "w_hh_t", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "b_hh", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "h0", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "out", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GruBirectionalCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, seqLen);
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, hidden);
  TILING_DATA_FIELD_DEF(uint32_t, kChunk);     // rows of W_hh^T streamed through UB at once
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GruBirectionalCustom, GruBirectionalCustomTilingData)
}
"""

host_operator_src="""
#include "gru_birectional_custom_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
// UB budget for one weight slice (double buffered): 48 KB each
constexpr uint32_t WEIGHT_SLICE_BYTES = 48 * 1024;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    // gi: (2, T, B, 3H)   w_hh_t: (2, H, 3H)   b_hh: (2, 3H)   h0: (2, B, H)
    const gert::Shape &giShape = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &hShape = context->GetInputShape(3)->GetStorageShape();
    uint32_t T = giShape.GetDim(1);
    uint32_t B = giShape.GetDim(2);
    uint32_t H = hShape.GetDim(2);

    uint32_t rowBytes = 3 * H * sizeof(float);
    uint32_t kChunk = WEIGHT_SLICE_BYTES / rowBytes;
    if (kChunk == 0) kChunk = 1;
    if (kChunk > H) kChunk = H;
    while (H % kChunk != 0) {
        kChunk--;
    }

    GruBirectionalCustomTilingData tiling;
    tiling.set_seqLen(T);
    tiling.set_batch(B);
    tiling.set_hidden(H);
    tiling.set_kChunk(kChunk);

    // one core per (direction, batch row): the recurrences are independent
    context->SetBlockDim(2 * B);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* gi = context->GetInputShape(0);
    const gert::Shape* h0 = context->GetInputShape(3);
    gert::Shape* out = context->GetOutputShape(0);
    out->SetDimNum(3);
    out->SetDim(0, gi->GetDim(1));
    out->SetDim(1, gi->GetDim(2));
    out->SetDim(2, 2 * h0->GetDim(2));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class GruBirectionalCustom : public OpDef {
public:
    explicit GruBirectionalCustom(const char* name) : OpDef(name)
    {
        this->Input("gi").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("w_hh_t").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("b_hh").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("h0").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("out").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
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

constexpr int32_t W_BUF = 2;

// One GRU layer, both directions. Input projections gi = x W_ih^T + b_ih are precomputed
// on the host side (one big matmul per direction); this kernel runs the sequential part:
//   gh = W_hh h + b_hh
//   r = sigmoid(gi_r + gh_r), z = sigmoid(gi_z + gh_z)
//   n = tanh(gi_n + r * gh_n)
//   h = n + z * (h - n)
// Block i handles direction i / B and batch row i % B.
class KernelGruLayer {
public:
    __aicore__ inline KernelGruLayer() {}

    __aicore__ inline void Init(GM_ADDR gi, GM_ADDR whhT, GM_ADDR bhh, GM_ADDR h0, GM_ADDR out,
                                const GruBirectionalCustomTilingData &td)
    {
        T = td.seqLen; B = td.batch; H = td.hidden; K = td.kChunk;
        G = 3 * H;
        uint32_t blk = GetBlockIdx();
        dir = blk / B;
        bIdx = blk % B;

        giGm.SetGlobalBuffer((__gm__ float *)gi + (uint64_t)dir * T * B * G);
        wGm.SetGlobalBuffer((__gm__ float *)whhT + (uint64_t)dir * H * G);
        bGm.SetGlobalBuffer((__gm__ float *)bhh + (uint64_t)dir * G);
        h0Gm.SetGlobalBuffer((__gm__ float *)h0 + ((uint64_t)dir * B + bIdx) * H);
        outGm.SetGlobalBuffer((__gm__ float *)out);

        pipe.InitBuffer(wQue, W_BUF, K * G * sizeof(float));
        pipe.InitBuffer(giQue, 1, G * sizeof(float));
        pipe.InitBuffer(outQue, 1, H * sizeof(float));
        pipe.InitBuffer(hBuf, H * sizeof(float));
        pipe.InitBuffer(ghBuf, G * sizeof(float));
        pipe.InitBuffer(biasBuf, G * sizeof(float));
        pipe.InitBuffer(tmpBuf, 2 * H * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> h = hBuf.Get<float>();
        LocalTensor<float> bias = biasBuf.Get<float>();
        DataCopy(h, h0Gm, H);
        DataCopy(bias, bGm, G);
        PipeBarrier<PIPE_ALL>();

        for (uint32_t step = 0; step < T; ++step) {
            uint32_t t = (dir == 0) ? step : (T - 1 - step);
            PrefetchGi(t);
            HiddenProjection();
            Cell();
            WriteStep(t);
        }
    }

private:
    __aicore__ inline void PrefetchGi(uint32_t t)
    {
        LocalTensor<float> g = giQue.AllocTensor<float>();
        DataCopy(g, giGm[((uint64_t)t * B + bIdx) * G], G);
        giQue.EnQue(g);
    }

    // gh = b_hh + sum_k h[k] * W_hh^T[k, :]
    __aicore__ inline void HiddenProjection()
    {
        LocalTensor<float> h = hBuf.Get<float>();
        LocalTensor<float> gh = ghBuf.Get<float>();
        LocalTensor<float> bias = biasBuf.Get<float>();
        Adds(gh, bias, 0.0f, G);
        // scalar unit reads h below; make sure the previous step's vector writes are visible
        PipeBarrier<PIPE_ALL>();

        uint32_t chunks = H / K;
        for (uint32_t c = 0; c < chunks; ++c) {
            LocalTensor<float> w = wQue.AllocTensor<float>();
            DataCopy(w, wGm[(uint64_t)c * K * G], K * G);
            wQue.EnQue(w);
            w = wQue.DeQue<float>();
            for (uint32_t k = 0; k < K; ++k) {
                float hv = h.GetValue(c * K + k);
                Axpy(gh, w[k * G], hv, G);
                PipeBarrier<PIPE_V>();
            }
            wQue.FreeTensor(w);
        }
    }

    __aicore__ inline void Sigmoid(const LocalTensor<float> &x, uint32_t n)
    {
        Muls(x, x, -1.0f, n);
        PipeBarrier<PIPE_V>();
        Exp(x, x, n);
        PipeBarrier<PIPE_V>();
        Adds(x, x, 1.0f, n);
        PipeBarrier<PIPE_V>();
        Reciprocal(x, x, n);
        PipeBarrier<PIPE_V>();
    }

    __aicore__ inline void Cell()
    {
        LocalTensor<float> gi = giQue.DeQue<float>();
        LocalTensor<float> gh = ghBuf.Get<float>();
        LocalTensor<float> h = hBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();

        // r|z gates share one pass over the first 2H entries
        Add(tmp, gi, gh, 2 * H);
        PipeBarrier<PIPE_V>();
        Sigmoid(tmp, 2 * H);
        LocalTensor<float> r = tmp;
        LocalTensor<float> z = tmp[H];

        // n = tanh(gi_n + r * gh_n), tanh(a) = 2 * sigmoid(2a) - 1
        LocalTensor<float> nGate = gh[2 * H];
        Mul(nGate, nGate, r, H);
        PipeBarrier<PIPE_V>();
        Add(nGate, nGate, gi[2 * H], H);
        PipeBarrier<PIPE_V>();
        Muls(nGate, nGate, 2.0f, H);
        PipeBarrier<PIPE_V>();
        Sigmoid(nGate, H);
        Muls(nGate, nGate, 2.0f, H);
        PipeBarrier<PIPE_V>();
        Adds(nGate, nGate, -1.0f, H);
        PipeBarrier<PIPE_V>();

        // h = n + z * (h - n)
        Sub(h, h, nGate, H);
        PipeBarrier<PIPE_V>();
        Mul(h, h, z, H);
        PipeBarrier<PIPE_V>();
        Add(h, h, nGate, H);
        PipeBarrier<PIPE_V>();

        giQue.FreeTensor(gi);
    }

    __aicore__ inline void WriteStep(uint32_t t)
    {
        LocalTensor<float> h = hBuf.Get<float>();
        LocalTensor<float> o = outQue.AllocTensor<float>();
        Adds(o, h, 0.0f, H);
        outQue.EnQue(o);
        o = outQue.DeQue<float>();
        // out[t, b, dir*H : (dir+1)*H]
        DataCopy(outGm[((uint64_t)t * B + bIdx) * 2 * H + dir * H], o, H);
        outQue.FreeTensor(o);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, W_BUF> wQue;
    TQue<QuePosition::VECIN, 1> giQue;
    TQue<QuePosition::VECOUT, 1> outQue;
    TBuf<QuePosition::VECCALC> hBuf, ghBuf, biasBuf, tmpBuf;
    GlobalTensor<float> giGm, wGm, bGm, h0Gm, outGm;
    uint32_t T, B, H, K, G;
    uint32_t dir, bIdx;
};

extern "C" __global__ __aicore__ void gru_birectional_custom(GM_ADDR gi, GM_ADDR w_hh_t, GM_ADDR b_hh, GM_ADDR h0,
                                                             GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelGruLayer op;
    op.Init(gi, w_hh_t, b_hh, h0, out, tiling_data);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <vector>

// weights follow nn.GRU._flat_weights order:
//   for each layer: [w_ih, w_hh, b_ih, b_hh] (forward), then the same for the reverse direction
at::Tensor gru_birectional_custom_impl_npu(const at::Tensor& x, const at::Tensor& h0,
                                           const std::vector<at::Tensor>& weights, int64_t num_layers)
{
    TORCH_CHECK(static_cast<int64_t>(weights.size()) == num_layers * 8, "expected 8 weight tensors per layer");
    at::Tensor layer_in = x.contiguous();
    const int64_t T = x.size(0);
    const int64_t B = x.size(1);

    for (int64_t l = 0; l < num_layers; ++l) {
        std::vector<at::Tensor> gis, whhs, bhhs;
        for (int64_t d = 0; d < 2; ++d) {
            const int64_t base = (l * 2 + d) * 4;
            const at::Tensor& w_ih = weights[base + 0];
            const at::Tensor& w_hh = weights[base + 1];
            const at::Tensor& b_ih = weights[base + 2];
            const at::Tensor& b_hh = weights[base + 3];
            // time-parallel input projection for the whole sequence
            at::Tensor gi = at::addmm(b_ih, layer_in.reshape({T * B, layer_in.size(2)}), w_ih.t());
            gis.push_back(gi.reshape({T, B, -1}));
            whhs.push_back(w_hh.t().contiguous());
            bhhs.push_back(b_hh);
        }
        at::Tensor gi_all = at::stack(gis, 0).contiguous();
        at::Tensor whh_all = at::stack(whhs, 0).contiguous();
        at::Tensor bhh_all = at::stack(bhhs, 0).contiguous();
        at::Tensor h_init = h0.narrow(0, 2 * l, 2).contiguous();
        const int64_t H = h_init.size(2);
        at::Tensor out = at::empty({T, B, 2 * H}, x.options());
        EXEC_NPU_CMD(aclnnGruBirectionalCustom, gi_all, whh_all, bhh_all, h_init, out);
        layer_in = out;
    }
    return layer_in;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("gru_birectional_custom", &gru_birectional_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("gru_birectional_custom", &gru_birectional_custom_impl_npu, "bidirectional multi-layer GRU forward");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib

class ModelNew(nn.Module):
    def __init__(self, input_size, hidden_size, num_layers=3, bias=True, batch_first=False):
        super(ModelNew, self).__init__()
        self.gru = nn.GRU(input_size, hidden_size, num_layers, bias, batch_first, dropout=0, bidirectional=True)
        self.num_layers = num_layers

    def forward(self, x, h0):
        weights = [w.contiguous() for w in self.gru._flat_weights]
        return custom_ops_lib.gru_birectional_custom(x, h0, weights, self.num_layers)
'''
