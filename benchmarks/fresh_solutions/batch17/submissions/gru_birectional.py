project_json_src='''
[
    {
        "op": "GruBirectionalCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "xgates",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "h0",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "whh_t",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "bhh",
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
  TILING_DATA_FIELD_DEF(uint32_t, kRows);      // rows of W_hh^T per streamed chunk
  TILING_DATA_FIELD_DEF(uint32_t, kChunks);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GruBirectionalCustom, GruBirectionalCustomTilingData)
}
"""

host_operator_src="""
#include "gru_birectional_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t W_CHUNK_BYTES = 24 * 1024;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    GruBirectionalCustomTilingData td;
    // xgates: (2, seq, batch, 3H)
    const auto& xs = context->GetInputShape(0)->GetStorageShape();
    uint32_t seqLen = static_cast<uint32_t>(xs.GetDim(1));
    uint32_t batch = static_cast<uint32_t>(xs.GetDim(2));
    uint32_t hidden = static_cast<uint32_t>(xs.GetDim(3) / 3);

    uint32_t rowBytes = 3 * hidden * sizeof(float);
    uint32_t kRows = W_CHUNK_BYTES / rowBytes;
    if (kRows == 0) {
        kRows = 1;
    }
    while (kRows > 1 && hidden % kRows != 0) {
        kRows--;
    }

    td.set_seqLen(seqLen);
    td.set_batch(batch);
    td.set_hidden(hidden);
    td.set_kRows(kRows);
    td.set_kChunks(hidden / kRows);

    // one core per (direction, batch row); both directions run in the same launch
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t work = 2 * batch;
    uint32_t cores = plat.GetCoreNumAiv();
    context->SetBlockDim(work < cores ? work : cores);

    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(3);
    ys->SetDim(0, xs->GetDim(1));
    ys->SetDim(1, xs->GetDim(2));
    ys->SetDim(2, xs->GetDim(3) / 3 * 2);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
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
        this->Input("xgates").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("h0").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("whh_t").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bhh").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
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

constexpr int32_t BUFFER_NUM = 2;

// Recurrent part of one bidirectional GRU layer.
//   xgates[d, t, b, :] = x_t W_ih^T + b_ih   (precomputed, gate order r | z | n)
//   hg = h W_hh^T + b_hh
//   r  = sigmoid(xr + hr), z = sigmoid(xz + hz)
//   n  = tanh(xn + r * hn)
//   h' = n + z * (h - n)
// Core id -> (direction, batch row). Direction 1 walks time backwards. Each core writes its
// half of y[t, b, d*H : (d+1)*H], so the two directions land interleaved as nn.GRU does.
class KernelGruBidir {
public:
    __aicore__ inline KernelGruBidir() {}
    __aicore__ inline void Init(GM_ADDR xg, GM_ADDR h0, GM_ADDR whhT, GM_ADDR bhh, GM_ADDR y,
                                uint32_t seqLen, uint32_t batch, uint32_t hidden, uint32_t kRows, uint32_t kChunks)
    {
        T = seqLen;
        B = batch;
        H = hidden;
        G = 3 * hidden;
        rowsPerChunk = kRows;
        chunks = kChunks;

        xgGm.SetGlobalBuffer((__gm__ float*)xg, (uint64_t)2 * T * B * G);
        h0Gm.SetGlobalBuffer((__gm__ float*)h0, (uint64_t)2 * B * H);
        wGm.SetGlobalBuffer((__gm__ float*)whhT, (uint64_t)2 * H * G);
        bGm.SetGlobalBuffer((__gm__ float*)bhh, (uint64_t)2 * G);
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)T * B * 2 * H);

        pipe.InitBuffer(wQue, BUFFER_NUM, rowsPerChunk * G * sizeof(float));
        pipe.InitBuffer(xQue, 1, G * sizeof(float));
        pipe.InitBuffer(yQue, 1, H * sizeof(float));
        pipe.InitBuffer(hBuf, H * sizeof(float));
        pipe.InitBuffer(hgBuf, G * sizeof(float));
        pipe.InitBuffer(biasBuf, G * sizeof(float));
        pipe.InitBuffer(tmpBuf, G * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t job = GetBlockIdx(); job < 2 * B; job += GetBlockNum()) {
            Run(job / B, job % B);
        }
    }

private:
    __aicore__ inline void ScalarWaitVector()
    {
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
    }

    __aicore__ inline void Run(uint32_t dir, uint32_t b)
    {
        LocalTensor<float> h = hBuf.Get<float>();
        LocalTensor<float> hg = hgBuf.Get<float>();
        LocalTensor<float> bias = biasBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();

        DataCopy(h, h0Gm[((uint64_t)dir * B + b) * H], H);
        DataCopy(bias, bGm[(uint64_t)dir * G], G);
        PipeBarrier<PIPE_ALL>();

        GlobalTensor<float> w = wGm[(uint64_t)dir * H * G];

        for (uint32_t step = 0; step < T; step++) {
            uint32_t t = (dir == 0) ? step : (T - 1 - step);

            // prefetch this step's input gates
            LocalTensor<float> xl = xQue.AllocTensor<float>();
            DataCopy(xl, xgGm[(((uint64_t)dir * T + t) * B + b) * G], G);
            xQue.EnQue(xl);

            // hg = b_hh + sum_k h[k] * W_hh^T[k, :]
            DataCopy(hg, bias, G);
            for (uint32_t c = 0; c < chunks; c++) {
                LocalTensor<float> wl = wQue.AllocTensor<float>();
                DataCopy(wl, w[(uint64_t)c * rowsPerChunk * G], rowsPerChunk * G);
                wQue.EnQue(wl);
                wl = wQue.DeQue<float>();
                for (uint32_t r = 0; r < rowsPerChunk; r++) {
                    float hk = h.GetValue(c * rowsPerChunk + r);
                    Axpy(hg, wl[r * G], hk, G);
                }
                wQue.FreeTensor(wl);
            }

            xl = xQue.DeQue<float>();
            LocalTensor<float> rz = tmp;             // [0, 2H): r and z
            LocalTensor<float> nGate = tmp[2 * H];   // [2H, 3H): n

            // r, z
            Add(rz, xl, hg, 2 * H);
            PipeBarrier<PIPE_V>();
            Sigmoid(rz, rz, 2 * H);
            PipeBarrier<PIPE_V>();
            // n = tanh(xn + r * hn)
            Mul(nGate, rz, hg[2 * H], H);
            PipeBarrier<PIPE_V>();
            Add(nGate, nGate, xl[2 * H], H);
            PipeBarrier<PIPE_V>();
            Tanh(nGate, nGate, H);
            PipeBarrier<PIPE_V>();
            xQue.FreeTensor(xl);

            // h' = n + z * (h - n)
            LocalTensor<float> yl = yQue.AllocTensor<float>();
            Sub(yl, h, nGate, H);
            PipeBarrier<PIPE_V>();
            Mul(yl, yl, rz[H], H);
            PipeBarrier<PIPE_V>();
            Add(yl, yl, nGate, H);
            PipeBarrier<PIPE_V>();
            DataCopy(h, yl, H);
            yQue.EnQue(yl);

            yl = yQue.DeQue<float>();
            DataCopy(yGm[(((uint64_t)t * B + b) * 2 + dir) * H], yl, H);
            yQue.FreeTensor(yl);

            ScalarWaitVector();   // h is read by the scalar unit in the next step
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> wQue;
    TQue<QuePosition::VECIN, 1> xQue;
    TQue<QuePosition::VECOUT, 1> yQue;
    TBuf<TPosition::VECCALC> hBuf, hgBuf, biasBuf, tmpBuf;
    GlobalTensor<float> xgGm, h0Gm, wGm, bGm, yGm;
    uint32_t T, B, H, G, rowsPerChunk, chunks;
};

extern "C" __global__ __aicore__ void gru_birectional_custom(GM_ADDR xgates, GM_ADDR h0, GM_ADDR whh_t, GM_ADDR bhh,
                                                             GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelGruBidir op;
    op.Init(xgates, h0, whh_t, bhh, y, td.seqLen, td.batch, td.hidden, td.kRows, td.kChunks);
    op.Process();
}
"""

python_bind_src="""
#include <vector>
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// weights: nn.GRU._flat_weights, per layer [w_ih, w_hh, b_ih, b_hh, w_ih_rev, w_hh_rev, b_ih_rev, b_hh_rev]
at::Tensor gru_birectional_custom_impl_npu(const at::Tensor& x, const at::Tensor& h0,
                                           const std::vector<at::Tensor>& weights, int64_t num_layers,
                                           bool batch_first)
{
    at::Tensor layer_in = batch_first ? x.transpose(0, 1).contiguous() : x.contiguous();
    at::Tensor h_init = h0.to(x.device()).contiguous();
    int64_t seq = layer_in.size(0);
    int64_t batch = layer_in.size(1);
    int64_t hidden = h_init.size(2);

    for (int64_t l = 0; l < num_layers; l++) {
        std::vector<at::Tensor> xg_dirs, whh_dirs, bhh_dirs;
        for (int64_t d = 0; d < 2; d++) {
            const at::Tensor& w_ih = weights[l * 8 + d * 4 + 0];
            const at::Tensor& w_hh = weights[l * 8 + d * 4 + 1];
            const at::Tensor& b_ih = weights[l * 8 + d * 4 + 2];
            const at::Tensor& b_hh = weights[l * 8 + d * 4 + 3];
            // input gates for the whole sequence in one GEMM
            at::Tensor xg = at::addmm(b_ih, layer_in.reshape({seq * batch, layer_in.size(2)}), w_ih.t());
            xg_dirs.push_back(xg.reshape({seq, batch, 3 * hidden}));
            whh_dirs.push_back(w_hh.t().contiguous());   // (H, 3H)
            bhh_dirs.push_back(b_hh);
        }
        at::Tensor xgates = at::stack(xg_dirs, 0).contiguous();
        at::Tensor whh_t = at::stack(whh_dirs, 0).contiguous();
        at::Tensor bhh = at::stack(bhh_dirs, 0).contiguous();
        at::Tensor hl = h_init.narrow(0, 2 * l, 2).contiguous();

        at::Tensor out = at::empty({seq, batch, 2 * hidden}, layer_in.options());
        EXEC_NPU_CMD(aclnnGruBirectionalCustom, xgates, hl, whh_t, bhh, out);
        layer_in = out;
    }
    return batch_first ? layer_in.transpose(0, 1).contiguous() : layer_in;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("gru_birectional_custom", &gru_birectional_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("gru_birectional_custom", &gru_birectional_custom_impl_npu, "multi-layer bidirectional GRU");
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
        self.num_layers = num_layers
        self.batch_first = batch_first
        self.gru = nn.GRU(input_size, hidden_size, num_layers, bias, batch_first, dropout=0, bidirectional=True)

    def forward(self, x, h0):
        return custom_ops_lib.gru_birectional_custom(
            x, h0, list(self.gru._flat_weights), self.num_layers, self.batch_first)
'''
