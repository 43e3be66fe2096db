project_json_src='''
[
    {
        "op": "GatedRecurrentStepCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "gate_x", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "gate_h", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "h_prev", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "output_desc": [
            {"name": "h_next", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GatedRecurrentStepTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, hidden);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, chunk);
  TILING_DATA_FIELD_DEF(uint32_t, chunksPerRow);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GatedRecurrentStepCustom, GatedRecurrentStepTilingData)
}
"""

host_operator_src="""
#include "gated_recurrent_step_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t MAX_CHUNK = 2048;

// largest divisor of hidden not above MAX_CHUNK that keeps 32 B alignment for the dtype
uint32_t PickChunk(uint32_t hidden, uint32_t alignElems)
{
    if (hidden <= MAX_CHUNK) {
        return hidden;
    }
    for (uint32_t c = MAX_CHUNK; c >= alignElems; c -= alignElems) {
        if (hidden % c == 0) {
            return c;
        }
    }
    return alignElems;
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    GatedRecurrentStepTilingData td;
    const gert::Shape& hs = context->GetInputShape(2)->GetOriginShape();
    uint32_t hidden = static_cast<uint32_t>(hs.GetDim(hs.GetDimNum() - 1));
    uint32_t batch = static_cast<uint32_t>(hs.GetShapeSize() / hidden);

    auto dtype = context->GetInputDesc(0)->GetDataType();
    uint32_t typeSize = dtype == ge::DT_FLOAT16 ? 2 : 4;
    uint32_t alignElems = 32 / typeSize;
    if (hidden % alignElems != 0) {
        return ge::GRAPH_FAILED;   // gate slices are copied as whole blocks
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = platform.GetCoreNumAiv();
    uint32_t rowsPerCore = (batch + cores - 1) / cores;
    uint32_t usedCores = (batch + rowsPerCore - 1) / rowsPerCore;
    uint32_t chunk = PickChunk(hidden, alignElems);

    td.set_batch(batch);
    td.set_hidden(hidden);
    td.set_rowsPerCore(rowsPerCore);
    td.set_chunk(chunk);
    td.set_chunksPerRow(hidden / chunk);

    context->SetTilingKey(dtype == ge::DT_FLOAT16 ? 1 : 0);
    context->SetBlockDim(usedCores);
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
class GatedRecurrentStepCustom : public OpDef {
public:
    explicit GatedRecurrentStepCustom(const char* name) : OpDef(name)
    {
        const char* ins[] = {"gate_x", "gate_h", "h_prev"};
        for (const char* n : ins) {
            this->Input(n)
                .ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
                .Format({ge::FORMAT_ND, ge::FORMAT_ND})
                .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        }
        this->Output("h_next")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(GatedRecurrentStepCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t GATES = 3;   // r, z, n slices of a gate row, PyTorch order

// Element-wise gate math in fp32.
class GruGateMath {
public:
    // dst = 1 / (1 + exp(-src))
    __aicore__ static inline void Sigmoid(const LocalTensor<float>& dst, const LocalTensor<float>& src, uint32_t n)
    {
        Muls(dst, src, -1.0f, n);
        Exp(dst, dst, n);
        Adds(dst, dst, 1.0f, n);
        Reciprocal(dst, dst, n);
    }
    // dst = 2 * sigmoid(2 * src) - 1
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
class GatedRecurrentStep {
public:
    __aicore__ inline GatedRecurrentStep() {}
    __aicore__ inline void Init(GM_ADDR gx, GM_ADDR gh, GM_ADDR hp, GM_ADDR hn, const GatedRecurrentStepTilingData& td)
    {
        hidden = td.hidden;
        chunk = td.chunk;
        chunksPerRow = td.chunksPerRow;
        rowStart = GetBlockIdx() * td.rowsPerCore;
        rowStop = rowStart + td.rowsPerCore;
        if (rowStop > td.batch) {
            rowStop = td.batch;
        }
        gxGm.SetGlobalBuffer((__gm__ T*)gx);
        ghGm.SetGlobalBuffer((__gm__ T*)gh);
        hpGm.SetGlobalBuffer((__gm__ T*)hp);
        hnGm.SetGlobalBuffer((__gm__ T*)hn);

        pipe.InitBuffer(gxQue, BUFFER_NUM, GATES * chunk * sizeof(T));
        pipe.InitBuffer(ghQue, BUFFER_NUM, GATES * chunk * sizeof(T));
        pipe.InitBuffer(hQue, BUFFER_NUM, chunk * sizeof(T));
        pipe.InitBuffer(outQue, BUFFER_NUM, chunk * sizeof(T));
        // fp32 workspace: gx(3) + gh(3) + h + r + z + tmp
        pipe.InitBuffer(calcBuf, 10 * chunk * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t row = rowStart; row < rowStop; ++row) {
            for (uint32_t c = 0; c < chunksPerRow; ++c) {
                CopyIn(row, c);
                Compute();
                CopyOut(row, c);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t row, uint32_t c)
    {
        LocalTensor<T> gx = gxQue.AllocTensor<T>();
        LocalTensor<T> gh = ghQue.AllocTensor<T>();
        LocalTensor<T> h = hQue.AllocTensor<T>();
        uint64_t gateBase = static_cast<uint64_t>(row) * GATES * hidden + c * chunk;
        for (uint32_t g = 0; g < GATES; ++g) {
            DataCopy(gx[g * chunk], gxGm[gateBase + g * hidden], chunk);
            DataCopy(gh[g * chunk], ghGm[gateBase + g * hidden], chunk);
        }
        DataCopy(h, hpGm[static_cast<uint64_t>(row) * hidden + c * chunk], chunk);
        gxQue.EnQue(gx);
        ghQue.EnQue(gh);
        hQue.EnQue(h);
    }

    __aicore__ inline void ToFloat(const LocalTensor<float>& dst, const LocalTensor<T>& src, uint32_t n)
    {
        if constexpr (std::is_same<T, float>::value) {
            DataCopy(dst, src, n);
        } else {
            Cast(dst, src, RoundMode::CAST_NONE, n);
        }
    }

    __aicore__ inline void Compute()
    {
        LocalTensor<T> gx = gxQue.DeQue<T>();
        LocalTensor<T> gh = ghQue.DeQue<T>();
        LocalTensor<T> h = hQue.DeQue<T>();
        LocalTensor<float> ws = calcBuf.Get<float>();
        LocalTensor<float> fx = ws;                 // 3 * chunk
        LocalTensor<float> fh = ws[3 * chunk];      // 3 * chunk
        LocalTensor<float> hPrev = ws[6 * chunk];
        LocalTensor<float> r = ws[7 * chunk];
        LocalTensor<float> z = ws[8 * chunk];
        LocalTensor<float> tmp = ws[9 * chunk];

        ToFloat(fx, gx, GATES * chunk);
        ToFloat(fh, gh, GATES * chunk);
        ToFloat(hPrev, h, chunk);
        gxQue.FreeTensor(gx);
        ghQue.FreeTensor(gh);
        hQue.FreeTensor(h);

        Add(tmp, fx, fh, chunk);                    // r pre-activation
        GruGateMath::Sigmoid(r, tmp, chunk);
        Add(tmp, fx[chunk], fh[chunk], chunk);      // z pre-activation
        GruGateMath::Sigmoid(z, tmp, chunk);
        Mul(tmp, r, fh[2 * chunk], chunk);          // r * (W_hn h + b_hn)
        Add(tmp, tmp, fx[2 * chunk], chunk);
        GruGateMath::Tanh(r, tmp, chunk);           // r now holds n
        // h' = n + z * (h - n)
        Sub(tmp, hPrev, r, chunk);
        Mul(tmp, tmp, z, chunk);
        Add(tmp, tmp, r, chunk);

        LocalTensor<T> o = outQue.AllocTensor<T>();
        if constexpr (std::is_same<T, float>::value) {
            DataCopy(o, tmp, chunk);
        } else {
            Cast(o, tmp, RoundMode::CAST_ROUND, chunk);
        }
        outQue.EnQue(o);
    }

    __aicore__ inline void CopyOut(uint32_t row, uint32_t c)
    {
        LocalTensor<T> o = outQue.DeQue<T>();
        DataCopy(hnGm[static_cast<uint64_t>(row) * hidden + c * chunk], o, chunk);
        outQue.FreeTensor(o);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> gxQue, ghQue, hQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQue;
    TBuf<TPosition::VECCALC> calcBuf;
    GlobalTensor<T> gxGm, ghGm, hpGm, hnGm;
    uint32_t hidden, chunk, chunksPerRow, rowStart, rowStop;
};

extern "C" __global__ __aicore__ void gated_recurrent_step_custom(GM_ADDR gate_x, GM_ADDR gate_h, GM_ADDR h_prev,
                                                                  GM_ADDR h_next, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        GatedRecurrentStep<float> op;
        op.Init(gate_x, gate_h, h_prev, h_next, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        GatedRecurrentStep<half> op;
        op.Init(gate_x, gate_h, h_prev, h_next, td);
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

static at::Tensor gru_step(const at::Tensor& gx, const at::Tensor& gh, const at::Tensor& h)
{
    at::Tensor next = at::empty_like(h);
    EXEC_NPU_CMD(aclnnGatedRecurrentStepCustom, gx, gh, h, next);
    return next;
}

// Bidirectional multi-layer GRU returning h_n.
// weights follows nn.GRU._flat_weights: per layer, per direction: w_ih, w_hh, b_ih, b_hh.
at::Tensor bidir_gru_hidden_impl_npu(const at::Tensor& x, const at::Tensor& h0,
                                     const std::vector<at::Tensor>& weights, int64_t numLayers, bool batchFirst)
{
    at::Tensor seq = batchFirst ? x.transpose(0, 1).contiguous() : x.contiguous();  // T, B, I
    const int64_t steps = seq.size(0);
    std::vector<at::Tensor> finals;
    finals.reserve(numLayers * 2);

    at::Tensor layerIn = seq;
    for (int64_t layer = 0; layer < numLayers; ++layer) {
        std::vector<at::Tensor> dirOut;
        for (int64_t dir = 0; dir < 2; ++dir) {
            const int64_t w = (layer * 2 + dir) * 4;
            const at::Tensor& wIh = weights[w];
            const at::Tensor& wHh = weights[w + 1];
            const at::Tensor& bIh = weights[w + 2];
            const at::Tensor& bHh = weights[w + 3];

            // input projection of all steps at once: (T, B, 3H)
            at::Tensor gxAll = at::linear(layerIn, wIh, bIh).contiguous();
            at::Tensor h = h0[layer * 2 + dir].contiguous();
            std::vector<at::Tensor> hs(steps);
            for (int64_t s = 0; s < steps; ++s) {
                int64_t t = dir == 0 ? s : steps - 1 - s;
                at::Tensor gh = at::linear(h, wHh, bHh).contiguous();
                h = gru_step(gxAll[t], gh, h);
                hs[t] = h;
            }
            finals.push_back(h);
            dirOut.push_back(at::stack(hs, 0));
        }
        layerIn = at::cat(dirOut, 2).contiguous();  // T, B, 2H
    }
    return at::stack(finals, 0);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("bidir_gru_hidden", &bidir_gru_hidden_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("bidir_gru_hidden", &bidir_gru_hidden_impl_npu, "bidirectional GRU, returns h_n");
}
"""
