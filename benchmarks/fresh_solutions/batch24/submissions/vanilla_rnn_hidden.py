project_json_src='''
[
    {
        "op": "VanillaRnnHiddenCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x_proj", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "h0", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "w_hh_t", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "hidden_seq", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(VanillaRnnHiddenCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, seqLen);
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, hidden);
  TILING_DATA_FIELD_DEF(uint32_t, residentRows);  // rows of W_hh^T kept in UB for the whole sequence
  TILING_DATA_FIELD_DEF(uint32_t, chunkRows);     // rows of W_hh^T streamed per step chunk
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(VanillaRnnHiddenCustom, VanillaRnnHiddenCustomTilingData)
}
"""

host_operator_src="""
#include "vanilla_rnn_hidden_custom_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
// UB budget (bytes) we allow for the resident slice of the recurrent weight
constexpr uint32_t RESIDENT_BUDGET = 96 * 1024;
constexpr uint32_t STREAM_BUDGET = 16 * 1024;   // one streamed chunk (double buffered)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    VanillaRnnHiddenCustomTilingData tiling;
    const gert::Shape xs = context->GetInputShape(0)->GetOriginShape();   // [T, B, H]
    uint32_t T = static_cast<uint32_t>(xs.GetDim(0));
    uint32_t B = static_cast<uint32_t>(xs.GetDim(1));
    uint32_t H = static_cast<uint32_t>(xs.GetDim(2));
    uint32_t rowBytes = H * sizeof(float);

    uint32_t resident = RESIDENT_BUDGET / rowBytes;
    if (resident > H) resident = H;
    uint32_t chunk = STREAM_BUDGET / rowBytes;
    if (chunk == 0) chunk = 1;
    if (chunk > H - resident && H > resident) chunk = H - resident;
    if (H == resident) chunk = 1;   // unused

    tiling.set_seqLen(T);
    tiling.set_batch(B);
    tiling.set_hidden(H);
    tiling.set_residentRows(resident);
    tiling.set_chunkRows(chunk);

    // the recurrence is independent per batch row: one core per row
    context->SetBlockDim(B);
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
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class VanillaRnnHiddenCustom : public OpDef {
public:
    explicit VanillaRnnHiddenCustom(const char* name) : OpDef(name)
    {
        this->Input("x_proj").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("h0").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("w_hh_t").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("hidden_seq").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(VanillaRnnHiddenCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

/*
 * Recurrent part of the vanilla RNN:
 *     h_t = tanh(x_proj[t] + W_hh * h_{t-1})
 * x_proj = x_t @ W_x^T + b is precomputed for all timesteps with one big GEMM on the host side.
 * Each core owns one batch row and walks the whole sequence.  W_hh is given transposed
 * (row k of w_hh_t is column k of W_hh) so the mat-vec becomes a sum of row * h[k] (Axpy).
 * The first residentRows rows stay in UB, the remainder is streamed in chunks every step.
 */
class KernelVanillaRnn {
public:
    __aicore__ inline KernelVanillaRnn() {}
    __aicore__ inline void Init(GM_ADDR xProj, GM_ADDR h0, GM_ADDR wT, GM_ADDR out,
                                uint32_t T, uint32_t B, uint32_t H, uint32_t resident, uint32_t chunk)
    {
        seqLen = T; batch = B; hidden = H; residentRows = resident; chunkRows = chunk;
        row = GetBlockIdx();

        xGm.SetGlobalBuffer((__gm__ float*)xProj, static_cast<uint64_t>(T) * B * H);
        outGm.SetGlobalBuffer((__gm__ float*)out, static_cast<uint64_t>(T) * B * H);
        hInitGm.SetGlobalBuffer((__gm__ float*)h0 + row * H, H);
        wGm.SetGlobalBuffer((__gm__ float*)wT, H * H);

        pipe.InitBuffer(xQue, BUFFER_NUM, H * sizeof(float));
        pipe.InitBuffer(wQue, BUFFER_NUM, chunkRows * H * sizeof(float));
        pipe.InitBuffer(outQue, BUFFER_NUM, H * sizeof(float));
        pipe.InitBuffer(wResBuf, (residentRows > 0 ? residentRows : 1) * H * sizeof(float));
        pipe.InitBuffer(hBuf, H * sizeof(float));
        pipe.InitBuffer(accBuf, H * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> hLocal = hBuf.Get<float>();
        LocalTensor<float> wRes = wResBuf.Get<float>();

        // initial hidden state and the resident part of the weight
        DataCopy(hLocal, hInitGm, hidden);
        if (residentRows > 0) {
            DataCopy(wRes, wGm, residentRows * hidden);
        }
        event_t ldEvt = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(ldEvt);
        WaitFlag<HardEvent::MTE2_S>(ldEvt);
        event_t ldVec = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(ldVec);
        WaitFlag<HardEvent::MTE2_V>(ldVec);

        for (uint32_t t = 0; t < seqLen; ++t) {
            Step(t, hLocal, wRes);
        }
    }

private:
    __aicore__ inline void Step(uint32_t t, LocalTensor<float>& hLocal, LocalTensor<float>& wRes)
    {
        uint64_t off = (static_cast<uint64_t>(t) * batch + row) * hidden;

        LocalTensor<float> xIn = xQue.AllocTensor<float>();
        DataCopy(xIn, xGm[off], hidden);
        xQue.EnQue(xIn);
        xIn = xQue.DeQue<float>();

        LocalTensor<float> acc = accBuf.Get<float>();
        Adds(acc, xIn, 0.0f, hidden);
        xQue.FreeTensor(xIn);

        // resident rows
        for (uint32_t k = 0; k < residentRows; ++k) {
            float hk = hLocal.GetValue(k);
            Axpy(acc, wRes[k * hidden], hk, hidden);
        }
        // streamed rows
        for (uint32_t k0 = residentRows; k0 < hidden; k0 += chunkRows) {
            uint32_t n = hidden - k0;
            if (n > chunkRows) n = chunkRows;
            LocalTensor<float> wChunk = wQue.AllocTensor<float>();
            DataCopy(wChunk, wGm[static_cast<uint64_t>(k0) * hidden], n * hidden);
            wQue.EnQue(wChunk);
            wChunk = wQue.DeQue<float>();
            for (uint32_t k = 0; k < n; ++k) {
                float hk = hLocal.GetValue(k0 + k);
                Axpy(acc, wChunk[k * hidden], hk, hidden);
            }
            wQue.FreeTensor(wChunk);
        }

        // h_t = tanh(acc); the scalar unit must not read h before the vector writes land
        Tanh(hLocal, acc, hidden);
        LocalTensor<float> yOut = outQue.AllocTensor<float>();
        Muls(yOut, hLocal, 1.0f, hidden);
        outQue.EnQue(yOut);
        yOut = outQue.DeQue<float>();
        DataCopy(outGm[off], yOut, hidden);
        outQue.FreeTensor(yOut);

        event_t vs = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQue, wQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQue;
    TBuf<QuePosition::VECCALC> wResBuf, hBuf, accBuf;
    GlobalTensor<float> xGm, outGm, hInitGm, wGm;
    uint32_t seqLen, batch, hidden, residentRows, chunkRows, row;
};

extern "C" __global__ __aicore__ void vanilla_rnn_hidden_custom(GM_ADDR x_proj, GM_ADDR h0, GM_ADDR w_hh_t,
                                                                GM_ADDR hidden_seq, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelVanillaRnn op;
    op.Init(x_proj, h0, w_hh_t, hidden_seq, td.seqLen, td.batch, td.hidden, td.residentRows, td.chunkRows);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// x: [T, B, I], h0: [B, H], i2h_w: [H, I + H], i2h_b: [H], h2o_w: [O, H], h2o_b: [O]
at::Tensor vanilla_rnn_hidden_custom_impl_npu(const at::Tensor& x, const at::Tensor& h0,
                                              const at::Tensor& i2h_w, const at::Tensor& i2h_b,
                                              const at::Tensor& h2o_w, const at::Tensor& h2o_b)
{
    const int64_t T = x.size(0);
    const int64_t B = x.size(1);
    const int64_t I = x.size(2);
    const int64_t H = h0.size(1);

    // split the concat-weight into input and recurrent parts
    at::Tensor wX = i2h_w.narrow(1, 0, I);
    at::Tensor wHT = i2h_w.narrow(1, I, H).t().contiguous();

    // input projection for all timesteps in one GEMM
    at::Tensor xProj = at::addmm(i2h_b, x.reshape({T * B, I}), wX.t()).view({T, B, H}).contiguous();
    at::Tensor h0c = h0.to(x.device()).contiguous();

    at::Tensor hs = at::empty({T, B, H}, x.options());
    EXEC_NPU_CMD(aclnnVanillaRnnHiddenCustom, xProj, h0c, wHT, hs);

    // output projection, again batched over time
    at::Tensor out = at::addmm(h2o_b, hs.view({T * B, H}), h2o_w.t());
    return out.view({T, B, h2o_w.size(0)});
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("vanilla_rnn_hidden_custom", &vanilla_rnn_hidden_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("vanilla_rnn_hidden_custom", &vanilla_rnn_hidden_custom_impl_npu, "vanilla RNN forward");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib

class ModelNew(nn.Module):
    def __init__(self, input_size: int, hidden_size: int, output_size: int):
        super(ModelNew, self).__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.output_size = output_size
        self.i2h = nn.Linear(input_size + hidden_size, hidden_size)
        self.h2o = nn.Linear(hidden_size, output_size)
        self.tanh = nn.Tanh()

    def forward(self, x: torch.Tensor, h0: torch.Tensor) -> torch.Tensor:
        return custom_ops_lib.vanilla_rnn_hidden_custom(
            x, h0.to(x.device), self.i2h.weight, self.i2h.bias, self.h2o.weight, self.h2o.bias)
'''
