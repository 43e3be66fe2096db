project_json_src='''
[
    {
        "op": "GruCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "gi",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "gh",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "h",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ],
        "output_desc": [
            {
                "name": "h_out",
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
BEGIN_TILING_DATA_DEF(GruCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, hidden);
  TILING_DATA_FIELD_DEF(uint32_t, hiddenAligned);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, remainRows);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GruCustom, GruCustomTilingData)
}
"""

host_operator_src="""
#include "gru_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
const uint32_t TILE_BUDGET = 2048;   // floats per gate buffer

// One GRU time step for a batch of rows. gi / gh are the input and hidden
// projections (bias included) laid out as [B, 3H] with gate order r, z, n.
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    GruCustomTilingData tiling;
    const auto& giShape = context->GetInputShape(0)->GetStorageShape();
    const auto& hShape = context->GetInputShape(2)->GetStorageShape();
    if (giShape.GetDimNum() != 2 || hShape.GetDimNum() != 2) {
        return ge::GRAPH_FAILED;
    }
    uint32_t batch = hShape.GetDim(0);
    uint32_t hidden = hShape.GetDim(1);
    if (giShape.GetDim(1) != 3 * hidden || giShape.GetDim(0) != batch) {
        return ge::GRAPH_FAILED;
    }
    uint32_t hiddenAligned = (hidden + 7) / 8 * 8;
    uint32_t rowsPerTile = TILE_BUDGET / hiddenAligned;
    if (rowsPerTile == 0) {
        return ge::GRAPH_FAILED;   // hidden larger than one tile is not supported
    }

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    uint32_t blockDim = batch < coreNum ? batch : coreNum;
    if (blockDim == 0) {
        blockDim = 1;
    }
    uint32_t rowsPerCore = batch / blockDim;
    uint32_t remainRows = batch % blockDim;
    uint32_t maxRows = rowsPerCore + (remainRows > 0 ? 1 : 0);
    if (rowsPerTile > maxRows) {
        rowsPerTile = maxRows;
    }
    if (rowsPerTile == 0) {
        rowsPerTile = 1;
    }

    tiling.set_batch(batch);
    tiling.set_hidden(hidden);
    tiling.set_hiddenAligned(hiddenAligned);
    tiling.set_rowsPerCore(rowsPerCore);
    tiling.set_remainRows(remainRows);
    tiling.set_rowsPerTile(rowsPerTile);

    context->SetBlockDim(blockDim);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(2);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(2));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class GruCustom : public OpDef {
public:
    explicit GruCustom(const char* name) : OpDef(name)
    {
        this->Input("gi")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("gh")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("h")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("h_out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(GruCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t GATES = 3;

// r  = sigmoid(gi_r + gh_r)
// z  = sigmoid(gi_z + gh_z)
// n  = tanh(gi_n + r * gh_n)
// h' = (1 - z) * n + z * h = n + z * (h - n)
class KernelGruCell {
public:
    __aicore__ inline KernelGruCell() {}
    __aicore__ inline void Init(GM_ADDR gi, GM_ADDR gh, GM_ADDR h, GM_ADDR hOut, uint32_t hidden,
                                uint32_t hiddenAligned, uint32_t rowsPerCore, uint32_t remainRows,
                                uint32_t rowsPerTile)
    {
        this->hidden = hidden;
        this->hiddenAligned = hiddenAligned;
        this->rowsPerTile = rowsPerTile;
        uint32_t blockIdx = AscendC::GetBlockIdx();
        if (blockIdx < remainRows) {
            rowCount = rowsPerCore + 1;
            rowStart = blockIdx * (rowsPerCore + 1);
        } else {
            rowCount = rowsPerCore;
            rowStart = remainRows * (rowsPerCore + 1) + (blockIdx - remainRows) * rowsPerCore;
        }
        giGm.SetGlobalBuffer((__gm__ float*)gi);
        ghGm.SetGlobalBuffer((__gm__ float*)gh);
        hGm.SetGlobalBuffer((__gm__ float*)h);
        outGm.SetGlobalBuffer((__gm__ float*)hOut);

        gateLen = rowsPerTile * hiddenAligned;
        // gi / gh queues hold the three gates of a tile back to back: [r | z | n]
        pipe.InitBuffer(giQueue, BUFFER_NUM, GATES * gateLen * sizeof(float));
        pipe.InitBuffer(ghQueue, BUFFER_NUM, GATES * gateLen * sizeof(float));
        pipe.InitBuffer(hQueue, BUFFER_NUM, gateLen * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, gateLen * sizeof(float));
        pipe.InitBuffer(rBuf, gateLen * sizeof(float));
        pipe.InitBuffer(zBuf, gateLen * sizeof(float));
        pipe.InitBuffer(nBuf, gateLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t done = 0; done < rowCount; done += rowsPerTile) {
            uint32_t rows = (rowCount - done) < rowsPerTile ? (rowCount - done) : rowsPerTile;
            uint32_t row0 = rowStart + done;
            CopyIn(row0, rows);
            Compute(rows);
            CopyOut(row0, rows);
        }
    }

private:
    // dst = 1 / (1 + exp(-src))
    __aicore__ inline void SigmoidInplace(const AscendC::LocalTensor<float>& t, uint32_t len)
    {
        AscendC::Muls(t, t, -1.0f, len);
        AscendC::Exp(t, t, len);
        AscendC::Adds(t, t, 1.0f, len);
        AscendC::Reciprocal(t, t, len);
    }
    // tanh(x) = 2 / (1 + exp(-2x)) - 1 ; saturates cleanly to +-1
    __aicore__ inline void TanhInplace(const AscendC::LocalTensor<float>& t, uint32_t len)
    {
        AscendC::Muls(t, t, -2.0f, len);
        AscendC::Exp(t, t, len);
        AscendC::Adds(t, t, 1.0f, len);
        AscendC::Reciprocal(t, t, len);
        AscendC::Muls(t, t, 2.0f, len);
        AscendC::Adds(t, t, -1.0f, len);
    }

    __aicore__ inline void CopyIn(uint32_t row0, uint32_t rows)
    {
        AscendC::LocalTensor<float> giLocal = giQueue.AllocTensor<float>();
        AscendC::LocalTensor<float> ghLocal = ghQueue.AllocTensor<float>();
        AscendC::LocalTensor<float> hLocal = hQueue.AllocTensor<float>();
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        uint32_t rowBytes = hidden * static_cast<uint32_t>(sizeof(float));
        // one gate slice of every row: H floats, then skip the other two gates
        AscendC::DataCopyExtParams gateCp{static_cast<uint16_t>(rows), rowBytes, 2 * rowBytes, 0, 0};
        uint64_t gateRowBase = static_cast<uint64_t>(row0) * GATES * hidden;
        for (uint32_t g = 0; g < GATES; g++) {
            AscendC::DataCopyPad(giLocal[g * gateLen], giGm[gateRowBase + g * hidden], gateCp, pad);
            AscendC::DataCopyPad(ghLocal[g * gateLen], ghGm[gateRowBase + g * hidden], gateCp, pad);
        }
        AscendC::DataCopyExtParams hCp{static_cast<uint16_t>(rows), rowBytes, 0, 0, 0};
        AscendC::DataCopyPad(hLocal, hGm[static_cast<uint64_t>(row0) * hidden], hCp, pad);
        giQueue.EnQue(giLocal);
        ghQueue.EnQue(ghLocal);
        hQueue.EnQue(hLocal);
    }

    __aicore__ inline void Compute(uint32_t rows)
    {
        AscendC::LocalTensor<float> giLocal = giQueue.DeQue<float>();
        AscendC::LocalTensor<float> ghLocal = ghQueue.DeQue<float>();
        AscendC::LocalTensor<float> hLocal = hQueue.DeQue<float>();
        AscendC::LocalTensor<float> outLocal = outQueue.AllocTensor<float>();
        AscendC::LocalTensor<float> r = rBuf.Get<float>();
        AscendC::LocalTensor<float> z = zBuf.Get<float>();
        AscendC::LocalTensor<float> n = nBuf.Get<float>();
        uint32_t len = rows * hiddenAligned;

        AscendC::Add(r, giLocal, ghLocal, len);
        SigmoidInplace(r, len);
        AscendC::Add(z, giLocal[gateLen], ghLocal[gateLen], len);
        SigmoidInplace(z, len);

        AscendC::Mul(n, r, ghLocal[2 * gateLen], len);
        AscendC::Add(n, n, giLocal[2 * gateLen], len);
        TanhInplace(n, len);

        // h' = n + z * (h - n)
        AscendC::Sub(outLocal, hLocal, n, len);
        AscendC::Mul(outLocal, outLocal, z, len);
        AscendC::Add(outLocal, outLocal, n, len);

        outQueue.EnQue<float>(outLocal);
        giQueue.FreeTensor(giLocal);
        ghQueue.FreeTensor(ghLocal);
        hQueue.FreeTensor(hLocal);
    }

    __aicore__ inline void CopyOut(uint32_t row0, uint32_t rows)
    {
        AscendC::LocalTensor<float> outLocal = outQueue.DeQue<float>();
        AscendC::DataCopyExtParams cp{static_cast<uint16_t>(rows), hidden * static_cast<uint32_t>(sizeof(float)),
                                      0, 0, 0};
        AscendC::DataCopyPad(outGm[static_cast<uint64_t>(row0) * hidden], outLocal, cp);
        outQueue.FreeTensor(outLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> giQueue, ghQueue, hQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> rBuf, zBuf, nBuf;
    AscendC::GlobalTensor<float> giGm, ghGm, hGm, outGm;
    uint32_t hidden, hiddenAligned, rowsPerTile, gateLen, rowStart, rowCount;
};

extern "C" __global__ __aicore__ void gru_custom(GM_ADDR gi, GM_ADDR gh, GM_ADDR h, GM_ADDR h_out,
                                                 GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelGruCell op;
    op.Init(gi, gh, h, h_out, tiling_data.hidden, tiling_data.hiddenAligned, tiling_data.rowsPerCore,
            tiling_data.remainRows, tiling_data.rowsPerTile);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <vector>

// Multi-layer unidirectional GRU, sequence-major input (T, B, I).
// weights: per layer [w_ih (3H, I), w_hh (3H, H), b_ih (3H), b_hh (3H)].
// The input projection of a whole layer is one matmul; the recurrent
// projection runs per step, and the gate math of every step is the custom kernel.
at::Tensor gru_custom_impl_npu(const at::Tensor& x, const at::Tensor& h0,
                               const std::vector<at::Tensor>& weights, int64_t num_layers)
{
    TORCH_CHECK(x.dim() == 3, "x must be (seq_len, batch, input_size)");
    TORCH_CHECK(static_cast<int64_t>(weights.size()) == 4 * num_layers, "expected 4 tensors per layer");
    const int64_t seqLen = x.size(0);
    const int64_t batch = x.size(1);
    const int64_t hidden = h0.size(2);

    at::Tensor layerIn = x.contiguous();
    for (int64_t l = 0; l < num_layers; l++) {
        const at::Tensor& wIh = weights[4 * l + 0];
        const at::Tensor& wHh = weights[4 * l + 1];
        const at::Tensor& bIh = weights[4 * l + 2];
        const at::Tensor& bHh = weights[4 * l + 3];
        at::Tensor wHhT = wHh.t();

        at::Tensor gi = at::addmm(bIh, layerIn.reshape({seqLen * batch, layerIn.size(2)}), wIh.t())
                            .view({seqLen, batch, 3 * hidden});
        at::Tensor h = h0[l].contiguous();
        std::vector<at::Tensor> outs;
        outs.reserve(seqLen);
        for (int64_t t = 0; t < seqLen; t++) {
            at::Tensor giT = gi[t].contiguous();
            at::Tensor gh = at::addmm(bHh, h, wHhT).contiguous();
            at::Tensor hNew = at::empty({batch, hidden}, h.options());
            EXEC_NPU_CMD(aclnnGruCustom, giT, gh, h, hNew);
            outs.push_back(hNew);
            h = hNew;
        }
        layerIn = at::stack(outs, 0);
    }
    return layerIn;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("gru_custom", &gru_custom_impl_npu, "multi-layer GRU forward, returns output sequence");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, input_size, hidden_size, num_layers=3, bias=True, batch_first=False):
        super(ModelNew, self).__init__()
        self.gru = torch.nn.GRU(input_size, hidden_size, num_layers, bias, batch_first,
                                dropout=0, bidirectional=False)
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.batch_first = batch_first

    def _weights(self):
        ws = []
        for l in range(self.num_layers):
            w_ih = getattr(self.gru, "weight_ih_l%d" % l)
            w_hh = getattr(self.gru, "weight_hh_l%d" % l)
            if self.gru.bias:
                b_ih = getattr(self.gru, "bias_ih_l%d" % l)
                b_hh = getattr(self.gru, "bias_hh_l%d" % l)
            else:
                b_ih = torch.zeros(3 * self.hidden_size, device=w_ih.device, dtype=w_ih.dtype)
                b_hh = torch.zeros(3 * self.hidden_size, device=w_ih.device, dtype=w_ih.dtype)
            ws += [w_ih, w_hh, b_ih, b_hh]
        return ws

    def forward(self, x, h0):
        if self.batch_first:
            x = x.transpose(0, 1)
        out = custom_ops_lib.gru_custom(x.contiguous(), h0.contiguous(), self._weights(), self.num_layers)
        if self.batch_first:
            out = out.transpose(0, 1)
        return out
'''
