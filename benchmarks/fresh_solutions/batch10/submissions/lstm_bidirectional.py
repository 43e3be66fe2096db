project_json_src='''
[
    {
        "op": "FusedLstmCellUpdateCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "gates",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float16", "float"]
            },
            {
                "name": "c_prev",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float16", "float"]
            }
        ],
        "output_desc": [
            {
                "name": "h_next",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float16", "float"]
            },
            {
                "name": "c_next",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float16", "float"]
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(FusedLstmCellUpdateTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, hidden);
  TILING_DATA_FIELD_DEF(uint32_t, colTile);
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerRow);
  TILING_DATA_FIELD_DEF(uint32_t, totalTiles);
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(FusedLstmCellUpdateCustom, FusedLstmCellUpdateTilingData)
}
"""

host_operator_src="""
#include "fused_lstm_cell_update_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_COL_TILE = 2048;   // 4 gate slices + c + 2 outputs stay well below UB

static uint32_t PickColTile(uint32_t hidden, uint32_t batch, uint32_t cores)
{
    // shrink the column tile until every core gets at least one tile
    uint32_t tile = hidden < MAX_COL_TILE ? hidden : MAX_COL_TILE;
    tile = (tile + 15) / 16 * 16;
    while (tile > 64 && batch * ((hidden + tile - 1) / tile) < cores) {
        tile = (tile / 2 + 15) / 16 * 16;
    }
    return tile;
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& gs = context->GetInputShape(0)->GetStorageShape();
    uint32_t batch = gs.GetDim(0);
    uint32_t hidden = gs.GetDim(1) / 4;
    if (hidden == 0) {
        return ge::GRAPH_FAILED;
    }
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = platform.GetCoreNumAiv();

    uint32_t colTile = PickColTile(hidden, batch, cores);
    uint32_t tilesPerRow = (hidden + colTile - 1) / colTile;
    uint32_t totalTiles = batch * tilesPerRow;
    uint32_t tilesPerCore = (totalTiles + cores - 1) / cores;
    uint32_t used = (totalTiles + tilesPerCore - 1) / tilesPerCore;

    FusedLstmCellUpdateTilingData tiling;
    tiling.set_batch(batch);
    tiling.set_hidden(hidden);
    tiling.set_colTile(colTile);
    tiling.set_tilesPerRow(tilesPerRow);
    tiling.set_totalTiles(totalTiles);
    tiling.set_tilesPerCore(tilesPerCore);

    context->SetTilingKey(context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 1 : 0);
    context->SetBlockDim(used);
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
    const gert::Shape* cs = context->GetInputShape(1);
    *context->GetOutputShape(0) = *cs;
    *context->GetOutputShape(1) = *cs;
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    context->SetOutputDataType(1, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class FusedLstmCellUpdateCustom : public OpDef {
public:
    explicit FusedLstmCellUpdateCustom(const char* name) : OpDef(name)
    {
        this->Input("gates")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("c_prev")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("h_next")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("c_next")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(FusedLstmCellUpdateCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t GATE_NUM = 4;   // torch order: input, forget, cell, output

// Elementwise activations on float UB tensors built from basic vector ops.
struct ActMath {
    // dst = 1 / (1 + exp(-src))
    __aicore__ static inline void Sigmoid(const LocalTensor<float>& dst, const LocalTensor<float>& src, uint32_t n)
    {
        Muls(dst, src, -1.0f, n);
        PipeBarrier<PIPE_V>();
        Exp(dst, dst, n);
        PipeBarrier<PIPE_V>();
        Adds(dst, dst, 1.0f, n);
        PipeBarrier<PIPE_V>();
        Reciprocal(dst, dst, n);
        PipeBarrier<PIPE_V>();
    }
    // tanh(x) = 2 * sigmoid(2x) - 1
    __aicore__ static inline void Tanh(const LocalTensor<float>& dst, const LocalTensor<float>& src, uint32_t n)
    {
        Muls(dst, src, 2.0f, n);
        PipeBarrier<PIPE_V>();
        Sigmoid(dst, dst, n);
        Muls(dst, dst, 2.0f, n);
        PipeBarrier<PIPE_V>();
        Adds(dst, dst, -1.0f, n);
        PipeBarrier<PIPE_V>();
    }
};

template <typename T>
class FusedLstmCellUpdate {
public:
    __aicore__ inline FusedLstmCellUpdate() {}

    __aicore__ inline void Init(GM_ADDR gates, GM_ADDR cPrev, GM_ADDR hNext, GM_ADDR cNext,
                                uint32_t batch, uint32_t hidden, uint32_t colTile,
                                uint32_t tilesPerRow, uint32_t totalTiles, uint32_t tilesPerCore)
    {
        this->hidden = hidden;
        this->colTile = colTile;
        this->tilesPerRow = tilesPerRow;
        tileBegin = GetBlockIdx() * tilesPerCore;
        tileEnd = tileBegin + tilesPerCore;
        if (tileEnd > totalTiles) {
            tileEnd = totalTiles;
        }
        gGm.SetGlobalBuffer((__gm__ T*)gates, (uint64_t)batch * GATE_NUM * hidden);
        cGm.SetGlobalBuffer((__gm__ T*)cPrev, (uint64_t)batch * hidden);
        hOutGm.SetGlobalBuffer((__gm__ T*)hNext, (uint64_t)batch * hidden);
        cOutGm.SetGlobalBuffer((__gm__ T*)cNext, (uint64_t)batch * hidden);

        // gate slices are stored back to back, each colTile long (colTile is 16-aligned)
        pipe.InitBuffer(gateQue, BUFFER_NUM, GATE_NUM * colTile * sizeof(T));
        pipe.InitBuffer(cQue, BUFFER_NUM, colTile * sizeof(T));
        pipe.InitBuffer(hOutQue, BUFFER_NUM, colTile * sizeof(T));
        pipe.InitBuffer(cOutQue, BUFFER_NUM, colTile * sizeof(T));
        pipe.InitBuffer(workBuf, (GATE_NUM + 2) * colTile * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t t = tileBegin; t < tileEnd; ++t) {
            uint32_t row = t / tilesPerRow;
            uint32_t col = (t % tilesPerRow) * colTile;
            uint32_t len = hidden - col < colTile ? hidden - col : colTile;
            CopyIn(row, col, len);
            Compute(len);
            CopyOut(row, col, len);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t row, uint32_t col, uint32_t len)
    {
        LocalTensor<T> g = gateQue.AllocTensor<T>();
        LocalTensor<T> c = cQue.AllocTensor<T>();
        // 4 strided bursts: one per gate, gap of (hidden - len) elements in GM
        DataCopyExtParams gp{static_cast<uint16_t>(GATE_NUM), static_cast<uint32_t>(len * sizeof(T)),
                             static_cast<uint32_t>((hidden - len) * sizeof(T)),
                             static_cast<uint32_t>((colTile * sizeof(T) - (len * sizeof(T) + 31) / 32 * 32) / 32), 0};
        DataCopyPadExtParams<T> noPad{false, 0, 0, 0};
        DataCopyPad(g, gGm[(uint64_t)row * GATE_NUM * hidden + col], gp, noPad);
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPad(c, cGm[(uint64_t)row * hidden + col], cp, noPad);
        gateQue.EnQue(g);
        cQue.EnQue(c);
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        LocalTensor<T> g = gateQue.DeQue<T>();
        LocalTensor<T> c = cQue.DeQue<T>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> gi = work;
        LocalTensor<float> gf = work[colTile];
        LocalTensor<float> gg = work[2 * colTile];
        LocalTensor<float> go = work[3 * colTile];
        LocalTensor<float> cf = work[4 * colTile];
        LocalTensor<float> tmp = work[5 * colTile];

        if constexpr (IsSameType<T, float>::value) {
            DataCopy(gi, g, GATE_NUM * colTile);
            DataCopy(cf, c, colTile);
        } else {
            Cast(gi, g, RoundMode::CAST_NONE, GATE_NUM * colTile);
            Cast(cf, c, RoundMode::CAST_NONE, colTile);
        }
        PipeBarrier<PIPE_V>();
        gateQue.FreeTensor(g);
        cQue.FreeTensor(c);

        ActMath::Sigmoid(gi, gi, len);
        ActMath::Sigmoid(gf, gf, len);
        ActMath::Tanh(gg, gg, len);
        ActMath::Sigmoid(go, go, len);

        // c' = f * c + i * g
        Mul(cf, cf, gf, len);
        Mul(tmp, gi, gg, len);
        PipeBarrier<PIPE_V>();
        Add(cf, cf, tmp, len);
        PipeBarrier<PIPE_V>();
        // h' = o * tanh(c')
        ActMath::Tanh(tmp, cf, len);
        Mul(tmp, tmp, go, len);
        PipeBarrier<PIPE_V>();

        LocalTensor<T> hOut = hOutQue.AllocTensor<T>();
        LocalTensor<T> cOut = cOutQue.AllocTensor<T>();
        if constexpr (IsSameType<T, float>::value) {
            DataCopy(hOut, tmp, colTile);
            DataCopy(cOut, cf, colTile);
        } else {
            Cast(hOut, tmp, RoundMode::CAST_ROUND, colTile);
            Cast(cOut, cf, RoundMode::CAST_ROUND, colTile);
        }
        hOutQue.EnQue(hOut);
        cOutQue.EnQue(cOut);
    }

    __aicore__ inline void CopyOut(uint32_t row, uint32_t col, uint32_t len)
    {
        LocalTensor<T> hOut = hOutQue.DeQue<T>();
        LocalTensor<T> cOut = cOutQue.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPad(hOutGm[(uint64_t)row * hidden + col], hOut, cp);
        DataCopyPad(cOutGm[(uint64_t)row * hidden + col], cOut, cp);
        hOutQue.FreeTensor(hOut);
        cOutQue.FreeTensor(cOut);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> gateQue, cQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> hOutQue, cOutQue;
    TBuf<TPosition::VECCALC> workBuf;
    GlobalTensor<T> gGm, cGm, hOutGm, cOutGm;
    uint32_t hidden, colTile, tilesPerRow, tileBegin, tileEnd;
};

extern "C" __global__ __aicore__ void fused_lstm_cell_update_custom(GM_ADDR gates, GM_ADDR c_prev, GM_ADDR h_next,
                                                                    GM_ADDR c_next, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        FusedLstmCellUpdate<half> op;
        op.Init(gates, c_prev, h_next, c_next, td.batch, td.hidden, td.colTile,
                td.tilesPerRow, td.totalTiles, td.tilesPerCore);
        op.Process();
    } else if (TILING_KEY_IS(0)) {
        FusedLstmCellUpdate<float> op;
        op.Init(gates, c_prev, h_next, c_next, td.batch, td.hidden, td.colTile,
                td.tilesPerRow, td.totalTiles, td.tilesPerCore);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <vector>

// One LSTM step: gates (B, 4H) already hold x W_ih^T + h W_hh^T + biases.
static std::pair<at::Tensor, at::Tensor> lstm_cell_step(const at::Tensor& gates, const at::Tensor& cPrev)
{
    at::Tensor hNext = at::empty_like(cPrev);
    at::Tensor cNext = at::empty_like(cPrev);
    EXEC_NPU_CMD(aclnnFusedLstmCellUpdateCustom, gates, cPrev, hNext, cNext);
    return {hNext, cNext};
}

// Runs one direction of one layer over the full sequence; returns (B, T, H).
static at::Tensor run_direction(const at::Tensor& seq, const at::Tensor& wIh, const at::Tensor& wHh,
                                const at::Tensor& bIh, const at::Tensor& bHh,
                                at::Tensor h, at::Tensor c, bool reverse)
{
    const int64_t steps = seq.size(1);
    // input projection for all steps in one GEMM
    at::Tensor xProj = at::matmul(seq, wIh.t()) + (bIh + bHh);
    at::Tensor wHhT = wHh.t().contiguous();
    std::vector<at::Tensor> outs(steps);
    for (int64_t s = 0; s < steps; ++s) {
        int64_t t = reverse ? steps - 1 - s : s;
        at::Tensor gates = at::addmm(xProj.select(1, t), h, wHhT).contiguous();
        auto hc = lstm_cell_step(gates, c.contiguous());
        h = hc.first;
        c = hc.second;
        outs[t] = h;
    }
    return at::stack(outs, 1);
}

// params: per layer, per direction: w_ih, w_hh, b_ih, b_hh (torch _flat_weights order)
at::Tensor fused_lstm_bidir_head_impl_npu(const at::Tensor& x, const at::Tensor& h0, const at::Tensor& c0,
                                          const std::vector<at::Tensor>& params,
                                          const at::Tensor& fcWeight, const at::Tensor& fcBias)
{
    const int64_t numLayers = h0.size(0) / 2;
    TORCH_CHECK((int64_t)params.size() == numLayers * 8, "expected 8 tensors per bidirectional layer");
    at::Tensor layerIn = x.contiguous();
    for (int64_t l = 0; l < numLayers; ++l) {
        std::vector<at::Tensor> dirOut;
        for (int64_t d = 0; d < 2; ++d) {
            const int64_t base = (l * 2 + d) * 4;
            const int64_t idx = l * 2 + d;
            dirOut.push_back(run_direction(layerIn, params[base], params[base + 1], params[base + 2],
                                           params[base + 3], h0[idx], c0[idx], d == 1));
        }
        layerIn = at::cat(dirOut, 2).contiguous();
    }
    at::Tensor last = layerIn.select(1, layerIn.size(1) - 1);
    return at::addmm(fcBias, last, fcWeight.t());
}

at::Tensor fused_lstm_cell_update_impl_npu(const at::Tensor& gates, const at::Tensor& cPrev)
{
    return lstm_cell_step(gates, cPrev).first;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("fused_lstm_cell_update_custom", &fused_lstm_cell_update_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("fused_lstm_cell_update_custom", &fused_lstm_cell_update_impl_npu, "single fused LSTM cell update");
    m.def("fused_lstm_bidir_head", &fused_lstm_bidir_head_impl_npu,
          "bidirectional multi-layer LSTM + linear head on last step");
}
"""
