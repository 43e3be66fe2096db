project_json_src='''
[
    {
        "op": "GatedCellUpdateCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "gates", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]},
            {"name": "c_prev", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]}
        ],
        "output_desc": [
            {"name": "h_next", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]},
            {"name": "c_next", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GatedCellUpdateTiling)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, hidden);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);      // hidden units per tile
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerRow);
  TILING_DATA_FIELD_DEF(uint32_t, totalTiles);   // batch * tilesPerRow
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GatedCellUpdateCustom, GatedCellUpdateTiling)
}
"""

host_operator_src="""
#include "gated_cell_update_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    GatedCellUpdateTiling tiling;
    const gert::Shape& cs = context->GetInputShape(1)->GetOriginShape();   // [B, H]
    uint32_t batch = cs.GetDim(0);
    uint32_t hidden = cs.GetDim(1);

    // tile must stay 32B aligned for half as well as float
    uint32_t tileLen = hidden;
    constexpr uint32_t MAX_TILE = 2048;
    if (tileLen > MAX_TILE) {
        tileLen = MAX_TILE;
    }
    tileLen = (tileLen + 15) / 16 * 16;
    uint32_t tilesPerRow = (hidden + tileLen - 1) / tileLen;
    uint32_t total = batch * tilesPerRow;

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    context->SetBlockDim(total < coreNum ? total : coreNum);

    tiling.set_batch(batch);
    tiling.set_hidden(hidden);
    tiling.set_tileLen(tileLen);
    tiling.set_tilesPerRow(tilesPerRow);
    tiling.set_totalTiles(total);
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
    *context->GetOutputShape(0) = *context->GetInputShape(1);
    *context->GetOutputShape(1) = *context->GetInputShape(1);
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
class GatedCellUpdateCustom : public OpDef {
public:
    explicit GatedCellUpdateCustom(const char* name) : OpDef(name)
    {
        this->Input("gates").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("c_prev").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("h_next").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("c_next").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(GatedCellUpdateCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t GATE_NUM = 4;   // i, f, g, o (PyTorch order)

// Elementwise activations built from Exp so they work for any vector length.
struct ActMath {
    // dst = 1 / (1 + exp(-src))
    __aicore__ static inline void Sigmoid(const LocalTensor<float>& dst, const LocalTensor<float>& src, uint32_t n)
    {
        Muls(dst, src, -1.0f, n);
        Exp(dst, dst, n);
        Adds(dst, dst, 1.0f, n);
        Reciprocal(dst, dst, n);
    }
    // tanh(x) = 2 * sigmoid(2x) - 1
    __aicore__ static inline void Tanh(const LocalTensor<float>& dst, const LocalTensor<float>& src, uint32_t n)
    {
        Muls(dst, src, -2.0f, n);
        Exp(dst, dst, n);
        Adds(dst, dst, 1.0f, n);
        Reciprocal(dst, dst, n);
        Muls(dst, dst, 2.0f, n);
        Adds(dst, dst, -1.0f, n);
    }
};

template <typename T>
class GatedCellUpdate {
public:
    __aicore__ inline GatedCellUpdate() {}
    __aicore__ inline void Init(GM_ADDR gates, GM_ADDR cPrev, GM_ADDR hNext, GM_ADDR cNext,
                                const GatedCellUpdateTiling& t)
    {
        batch = t.batch;
        hidden = t.hidden;
        tileLen = t.tileLen;
        tilesPerRow = t.tilesPerRow;
        totalTiles = t.totalTiles;

        gGm.SetGlobalBuffer((__gm__ T*)gates, (uint64_t)batch * GATE_NUM * hidden);
        cGm.SetGlobalBuffer((__gm__ T*)cPrev, (uint64_t)batch * hidden);
        hOutGm.SetGlobalBuffer((__gm__ T*)hNext, (uint64_t)batch * hidden);
        cOutGm.SetGlobalBuffer((__gm__ T*)cNext, (uint64_t)batch * hidden);

        // gate tile holds the four gate slices back to back, each tileLen wide
        pipe.InitBuffer(gateQue, BUFFER_NUM, GATE_NUM * tileLen * sizeof(T));
        pipe.InitBuffer(cQue, BUFFER_NUM, tileLen * sizeof(T));
        pipe.InitBuffer(hOutQue, BUFFER_NUM, tileLen * sizeof(T));
        pipe.InitBuffer(cOutQue, BUFFER_NUM, tileLen * sizeof(T));
        pipe.InitBuffer(f32Buf, (GATE_NUM + 2) * tileLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t tIdx = GetBlockIdx(); tIdx < totalTiles; tIdx += GetBlockNum()) {
            uint32_t b = tIdx / tilesPerRow;
            uint32_t h0 = (tIdx % tilesPerRow) * tileLen;
            uint32_t len = (h0 + tileLen <= hidden) ? tileLen : (hidden - h0);
            CopyIn(b, h0, len);
            Compute(len);
            CopyOut(b, h0, len);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t b, uint32_t h0, uint32_t len)
    {
        LocalTensor<T> g = gateQue.AllocTensor<T>();
        LocalTensor<T> c = cQue.AllocTensor<T>();
        DataCopyExtParams one{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        // gates row b is [4H]; gate k of unit h sits at k * H + h
        DataCopyExtParams four{static_cast<uint16_t>(GATE_NUM), static_cast<uint32_t>(len * sizeof(T)),
                               static_cast<uint32_t>((hidden - len) * sizeof(T)),
                               static_cast<uint32_t>((tileLen - len) * sizeof(T) / 32), 0};
        DataCopyPad(g, gGm[(uint64_t)b * GATE_NUM * hidden + h0], four, pad);
        DataCopyPad(c, cGm[(uint64_t)b * hidden + h0], one, pad);
        gateQue.EnQue(g);
        cQue.EnQue(c);
    }

    __aicore__ inline void Widen(const LocalTensor<float>& dst, const LocalTensor<T>& src, uint32_t n)
    {
        if constexpr (IsSameType<T, float>::value) {
            Adds(dst, src, 0.0f, n);
        } else {
            Cast(dst, src, RoundMode::CAST_NONE, n);
        }
    }

    __aicore__ inline void Narrow(const LocalTensor<T>& dst, const LocalTensor<float>& src, uint32_t n)
    {
        if constexpr (IsSameType<T, float>::value) {
            Adds(dst, src, 0.0f, n);
        } else {
            Cast(dst, src, RoundMode::CAST_ROUND, n);
        }
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        LocalTensor<T> g = gateQue.DeQue<T>();
        LocalTensor<T> c = cQue.DeQue<T>();
        LocalTensor<float> f = f32Buf.Get<float>();
        LocalTensor<float> gi = f;
        LocalTensor<float> gf = f[tileLen];
        LocalTensor<float> gg = f[2 * tileLen];
        LocalTensor<float> go = f[3 * tileLen];
        LocalTensor<float> cf = f[4 * tileLen];
        LocalTensor<float> tmp = f[5 * tileLen];

        for (uint32_t k = 0; k < GATE_NUM; ++k) {
            Widen(f[k * tileLen], g[k * tileLen], len);
        }
        Widen(cf, c, len);
        gateQue.FreeTensor(g);
        cQue.FreeTensor(c);

        ActMath::Sigmoid(gi, gi, len);
        ActMath::Sigmoid(gf, gf, len);
        ActMath::Tanh(gg, gg, len);
        ActMath::Sigmoid(go, go, len);

        // c' = f * c + i * g
        Mul(cf, cf, gf, len);
        Mul(tmp, gi, gg, len);
        Add(cf, cf, tmp, len);
        // h' = o * tanh(c')
        ActMath::Tanh(tmp, cf, len);
        Mul(tmp, tmp, go, len);

        LocalTensor<T> hOut = hOutQue.AllocTensor<T>();
        LocalTensor<T> cOut = cOutQue.AllocTensor<T>();
        Narrow(hOut, tmp, len);
        Narrow(cOut, cf, len);
        hOutQue.EnQue(hOut);
        cOutQue.EnQue(cOut);
    }

    __aicore__ inline void CopyOut(uint32_t b, uint32_t h0, uint32_t len)
    {
        LocalTensor<T> hOut = hOutQue.DeQue<T>();
        LocalTensor<T> cOut = cOutQue.DeQue<T>();
        DataCopyExtParams one{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPad(hOutGm[(uint64_t)b * hidden + h0], hOut, one);
        DataCopyPad(cOutGm[(uint64_t)b * hidden + h0], cOut, one);
        hOutQue.FreeTensor(hOut);
        cOutQue.FreeTensor(cOut);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> gateQue, cQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> hOutQue, cOutQue;
    TBuf<QuePosition::VECCALC> f32Buf;
    GlobalTensor<T> gGm, cGm, hOutGm, cOutGm;
    uint32_t batch, hidden, tileLen, tilesPerRow, totalTiles;
};

extern "C" __global__ __aicore__ void gated_cell_update_custom(GM_ADDR gates, GM_ADDR c_prev, GM_ADDR h_next,
                                                               GM_ADDR c_next, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GatedCellUpdate<DTYPE_GATES> op;
    op.Init(gates, c_prev, h_next, c_next, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <vector>

// One LSTM time step: the cell nonlinearity runs in the custom kernel.
static std::vector<at::Tensor> gated_cell_step(const at::Tensor& gates, const at::Tensor& cPrev)
{
    at::Tensor h = at::empty_like(cPrev);
    at::Tensor c = at::empty_like(cPrev);
    EXEC_NPU_CMD(aclnnGatedCellUpdateCustom, gates, cPrev, h, c);
    return {h, c};
}

// Runs one direction of one layer. xProj holds x_t @ W_ih^T + b_ih + b_hh for all t: [T, B, 4H].
static at::Tensor run_direction(const at::Tensor& xProj, const at::Tensor& wHh,
                                at::Tensor h, at::Tensor c, bool reverse)
{
    int64_t steps = xProj.size(0);
    std::vector<at::Tensor> outs(steps);
    at::Tensor wHhT = wHh.t().contiguous();
    for (int64_t s = 0; s < steps; ++s) {
        int64_t t = reverse ? (steps - 1 - s) : s;
        at::Tensor gates = at::addmm(xProj[t], h, wHhT).contiguous();
        auto hc = gated_cell_step(gates, c.contiguous());
        h = hc[0];
        c = hc[1];
        outs[t] = h;
    }
    return at::stack(outs, 0);   // [T, B, H]
}

// weights: per layer and direction {w_ih, w_hh, b_ih, b_hh}, ordered layer-major, forward then reverse.
at::Tensor bidirectional_lstm_head_npu(const at::Tensor& x, const at::Tensor& h0, const at::Tensor& c0,
                                       const std::vector<at::Tensor>& weights,
                                       const at::Tensor& fcWeight, const at::Tensor& fcBias)
{
    int64_t numLayers = h0.size(0) / 2;
    at::Tensor seq = x.transpose(0, 1).contiguous();    // [T, B, I]
    int64_t T = seq.size(0);
    int64_t B = seq.size(1);
    for (int64_t layer = 0; layer < numLayers; ++layer) {
        std::vector<at::Tensor> dirOut;
        for (int64_t d = 0; d < 2; ++d) {
            const at::Tensor& wIh = weights[(layer * 2 + d) * 4 + 0];
            const at::Tensor& wHh = weights[(layer * 2 + d) * 4 + 1];
            const at::Tensor& bIh = weights[(layer * 2 + d) * 4 + 2];
            const at::Tensor& bHh = weights[(layer * 2 + d) * 4 + 3];
            at::Tensor proj = at::addmm(bIh + bHh, seq.reshape({T * B, seq.size(2)}), wIh.t());
            proj = proj.reshape({T, B, -1});
            dirOut.push_back(run_direction(proj, wHh, h0[layer * 2 + d], c0[layer * 2 + d], d == 1));
        }
        seq = at::cat(dirOut, 2).contiguous();           // [T, B, 2H]
    }
    at::Tensor last = seq[T - 1];                          // [B, 2H]
    return at::addmm(fcBias, last, fcWeight.t());
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("bidirectional_lstm_head", &bidirectional_lstm_head_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("gated_cell_update", &gated_cell_step, "LSTM cell update (i,f,g,o gates)");
    m.def("bidirectional_lstm_head", &bidirectional_lstm_head_npu, "stacked bidirectional LSTM + linear head");
}
"""
