project_json_src='''
[
    {
        "op": "LstmGateUpdateCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "gates",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            },
            {
                "name": "c_prev",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            }
        ],
        "output_desc": [
            {
                "name": "h_next",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            },
            {
                "name": "c_next",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LstmGateUpdateTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, hidden);
  TILING_DATA_FIELD_DEF(uint32_t, colTile);          // hidden units per task
  TILING_DATA_FIELD_DEF(uint32_t, colTilesPerRow);
  TILING_DATA_FIELD_DEF(uint32_t, tasksPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tasksTail);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LstmGateUpdateCustom, LstmGateUpdateTilingData)
}
"""

host_operator_src="""
#include "lstm_gate_update_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t MIN_COLS = 64;
constexpr uint32_t MAX_COLS = 2048;

// Spread batch * hidden over the vector cores; small batches are split along hidden.
uint32_t PickColTile(uint32_t batch, uint32_t hidden, uint32_t cores)
{
    uint32_t target = (batch * hidden + cores - 1) / cores;
    uint32_t cols = target < MIN_COLS ? MIN_COLS : target;
    if (cols > MAX_COLS) cols = MAX_COLS;
    cols = (cols + 15) / 16 * 16;
    if (cols > hidden) cols = hidden;
    return cols;
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    LstmGateUpdateTilingData tiling;
    const auto& gs = context->GetInputShape(0)->GetStorageShape();
    const auto& cs = context->GetInputShape(1)->GetStorageShape();
    uint32_t hidden = static_cast<uint32_t>(cs.GetDim(cs.GetDimNum() - 1));
    uint32_t batch = static_cast<uint32_t>(cs.GetShapeSize() / hidden);
    if (gs.GetShapeSize() != static_cast<int64_t>(batch) * hidden * 4) {
        return ge::GRAPH_FAILED;
    }
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();

    uint32_t colTile = PickColTile(batch, hidden, cores);
    uint32_t perRow = (hidden + colTile - 1) / colTile;
    uint32_t tasks = batch * perRow;
    if (cores > tasks) cores = tasks;
    if (cores == 0) cores = 1;

    tiling.set_batch(batch);
    tiling.set_hidden(hidden);
    tiling.set_colTile(colTile);
    tiling.set_colTilesPerRow(perRow);
    tiling.set_tasksPerCore(tasks / cores);
    tiling.set_tasksTail(tasks % cores);

    context->SetBlockDim(cores);
    context->SetTilingKey(context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 1 : 0);
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
    const gert::Shape* c = context->GetInputShape(1);
    *context->GetOutputShape(0) = *c;
    *context->GetOutputShape(1) = *c;
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    auto dt = context->GetInputDataType(0);
    context->SetOutputDataType(0, dt);
    context->SetOutputDataType(1, dt);
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class LstmGateUpdateCustom : public OpDef {
public:
    explicit LstmGateUpdateCustom(const char* name) : OpDef(name)
    {
        this->Input("gates")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("c_prev")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("h_next")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("c_next")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(LstmGateUpdateCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t GATE_NUM = 4;   // PyTorch order: input, forget, cell, output

template <typename T>
__aicore__ inline uint32_t RoundUp32B(uint32_t n)
{
    constexpr uint32_t a = 32 / sizeof(T);
    return (n + a - 1) / a * a;
}

// gates: [i | f | g | o] slices of `pitch` elements each (pre-activation, in place).
template <typename T>
__aicore__ inline void CellStep(const LocalTensor<T>& gates, const LocalTensor<T>& cPrev,
                                const LocalTensor<T>& hOut, const LocalTensor<T>& cOut,
                                uint32_t pitch, uint32_t n)
{
    LocalTensor<T> ig = gates;
    LocalTensor<T> fg = gates[pitch];
    LocalTensor<T> gg = gates[2 * pitch];
    LocalTensor<T> og = gates[3 * pitch];
    // i and f are adjacent: one sigmoid call covers both when the slice is unpadded
    if (n == pitch) {
        Sigmoid(ig, ig, 2 * pitch);
    } else {
        Sigmoid(ig, ig, n);
        Sigmoid(fg, fg, n);
    }
    Sigmoid(og, og, n);
    Tanh(gg, gg, n);
    PipeBarrier<PIPE_V>();
    Mul(cOut, fg, cPrev, n);          // f * c_prev
    Mul(ig, ig, gg, n);               // i * g
    PipeBarrier<PIPE_V>();
    Add(cOut, cOut, ig, n);
    PipeBarrier<PIPE_V>();
    Tanh(hOut, cOut, n);
    PipeBarrier<PIPE_V>();
    Mul(hOut, hOut, og, n);
}

template <typename T>
class LstmGateUpdate {
public:
    __aicore__ inline LstmGateUpdate() {}

    __aicore__ inline void Init(GM_ADDR gates, GM_ADDR cPrev, GM_ADDR hNext, GM_ADDR cNext,
                                uint32_t batch, uint32_t hidden, uint32_t colTile, uint32_t perRow,
                                uint32_t perCore, uint32_t tail)
    {
        this->hidden = hidden;
        this->colTile = colTile;
        this->perRow = perRow;
        pitch = RoundUp32B<T>(colTile);
        uint32_t id = GetBlockIdx();
        taskNum = perCore + (id < tail ? 1 : 0);
        taskFirst = id * perCore + (id < tail ? id : tail);

        gGm.SetGlobalBuffer((__gm__ T*)gates, (uint64_t)batch * hidden * GATE_NUM);
        cGm.SetGlobalBuffer((__gm__ T*)cPrev, (uint64_t)batch * hidden);
        hOutGm.SetGlobalBuffer((__gm__ T*)hNext, (uint64_t)batch * hidden);
        cOutGm.SetGlobalBuffer((__gm__ T*)cNext, (uint64_t)batch * hidden);

        pipe.InitBuffer(gateQ, BUFFER_NUM, GATE_NUM * pitch * sizeof(T));
        pipe.InitBuffer(cInQ, BUFFER_NUM, pitch * sizeof(T));
        pipe.InitBuffer(hOutQ, BUFFER_NUM, pitch * sizeof(T));
        pipe.InitBuffer(cOutQ, BUFFER_NUM, pitch * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t k = 0; k < taskNum; ++k) {
            uint32_t task = taskFirst + k;
            uint32_t b = task / perRow;
            uint32_t col = (task % perRow) * colTile;
            uint32_t n = hidden - col < colTile ? hidden - col : colTile;
            Fetch(b, col, n);
            Update(n);
            Emit(b, col, n);
        }
    }

private:
    __aicore__ inline void Fetch(uint32_t b, uint32_t col, uint32_t n)
    {
        LocalTensor<T> g = gateQ.AllocTensor<T>();
        LocalTensor<T> c = cInQ.AllocTensor<T>();
        // four gate slices of row b in one strided copy
        DataCopyExtParams gp;
        gp.blockCount = GATE_NUM;
        gp.blockLen = n * sizeof(T);
        gp.srcStride = (hidden - n) * sizeof(T);
        gp.dstStride = (pitch - RoundUp32B<T>(n)) * sizeof(T) / 32;
        gp.rsv = 0;
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(g, gGm[(uint64_t)b * hidden * GATE_NUM + col], gp, pad);
        DataCopyPad(c, cGm[(uint64_t)b * hidden + col], DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0}, pad);
        gateQ.EnQue(g);
        cInQ.EnQue(c);
    }

    __aicore__ inline void Update(uint32_t n)
    {
        LocalTensor<T> g = gateQ.DeQue<T>();
        LocalTensor<T> c = cInQ.DeQue<T>();
        LocalTensor<T> h = hOutQ.AllocTensor<T>();
        LocalTensor<T> cn = cOutQ.AllocTensor<T>();
        CellStep(g, c, h, cn, pitch, RoundUp32B<T>(n));
        hOutQ.EnQue(h);
        cOutQ.EnQue(cn);
        gateQ.FreeTensor(g);
        cInQ.FreeTensor(c);
    }

    __aicore__ inline void Emit(uint32_t b, uint32_t col, uint32_t n)
    {
        LocalTensor<T> h = hOutQ.DeQue<T>();
        LocalTensor<T> cn = cOutQ.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPad(hOutGm[(uint64_t)b * hidden + col], h, cp);
        DataCopyPad(cOutGm[(uint64_t)b * hidden + col], cn, cp);
        hOutQ.FreeTensor(h);
        cOutQ.FreeTensor(cn);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> gateQ, cInQ;
    TQue<TPosition::VECOUT, BUFFER_NUM> hOutQ, cOutQ;
    GlobalTensor<T> gGm, cGm, hOutGm, cOutGm;
    uint32_t hidden = 0, colTile = 0, perRow = 0, pitch = 0, taskNum = 0, taskFirst = 0;
};

extern "C" __global__ __aicore__ void lstm_gate_update_custom(GM_ADDR gates, GM_ADDR c_prev, GM_ADDR h_next,
                                                              GM_ADDR c_next, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        LstmGateUpdate<half> op;
        op.Init(gates, c_prev, h_next, c_next, td.batch, td.hidden, td.colTile, td.colTilesPerRow,
                td.tasksPerCore, td.tasksTail);
        op.Process();
    } else {
        LstmGateUpdate<float> op;
        op.Init(gates, c_prev, h_next, c_next, td.batch, td.hidden, td.colTile, td.colTilesPerRow,
                td.tasksPerCore, td.tasksTail);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <tuple>
#include <vector>

std::tuple<at::Tensor, at::Tensor> lstm_gate_update_npu(const at::Tensor& gates, const at::Tensor& c_prev)
{
    at::Tensor g = gates.contiguous();
    at::Tensor c = c_prev.contiguous();
    at::Tensor h_next = at::empty_like(c);
    at::Tensor c_next = at::empty_like(c);
    EXEC_NPU_CMD(aclnnLstmGateUpdateCustom, g, c, h_next, c_next);
    return std::make_tuple(h_next, c_next);
}

// Multi-layer batch_first LSTM returning h_n. flat_weights follows nn.LSTM._flat_weights:
// [w_ih_l0, w_hh_l0, b_ih_l0, b_hh_l0, w_ih_l1, ...]. The input projection for all steps is one
// matmul per layer; the recurrent matmul uses addmm and the gate math is the custom kernel.
at::Tensor lstm_final_hidden_npu(const at::Tensor& x, const at::Tensor& h0, const at::Tensor& c0,
                                 const std::vector<at::Tensor>& flat_weights)
{
    int64_t layers = h0.size(0);
    TORCH_CHECK(static_cast<int64_t>(flat_weights.size()) == layers * 4, "expected 4 tensors per layer");
    int64_t steps = x.size(1);
    at::Tensor seq = x.contiguous();
    std::vector<at::Tensor> finals;
    finals.reserve(layers);

    for (int64_t l = 0; l < layers; ++l) {
        const at::Tensor& w_ih = flat_weights[l * 4 + 0];
        const at::Tensor& w_hh = flat_weights[l * 4 + 1];
        at::Tensor bias = flat_weights[l * 4 + 2] + flat_weights[l * 4 + 3];
        at::Tensor proj = at::matmul(seq, w_ih.t()) + bias;    // (B, T, 4H)
        at::Tensor w_hh_t = w_hh.t().contiguous();
        at::Tensor h = h0[l].contiguous();
        at::Tensor c = c0[l].contiguous();
        bool keepSeq = (l + 1 < layers);
        std::vector<at::Tensor> outs;
        if (keepSeq) {
            outs.reserve(steps);
        }
        for (int64_t t = 0; t < steps; ++t) {
            at::Tensor gates = at::addmm(proj.select(1, t), h, w_hh_t);
            std::tie(h, c) = lstm_gate_update_npu(gates, c);
            if (keepSeq) {
                outs.push_back(h);
            }
        }
        finals.push_back(h);
        if (keepSeq) {
            seq = at::stack(outs, 1);
        }
    }
    return at::stack(finals, 0);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("lstm_gate_update_custom", &lstm_gate_update_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("lstm_gate_update_custom", &lstm_gate_update_npu, "LSTM cell pointwise update -> (h, c)");
    m.def("lstm_final_hidden", &lstm_final_hidden_npu, "stacked LSTM forward, returns h_n");
}
"""
