project_json_src='''
[
    {
        "op": "AttentionProbsCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "scores", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "probs", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "scale", "param_type": "optional", "type": "float", "default_value": "1.0"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AttentionProbsTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalRows);
  TILING_DATA_FIELD_DEF(uint32_t, rowLen);
  TILING_DATA_FIELD_DEF(uint32_t, rowLenPad);
  TILING_DATA_FIELD_DEF(uint64_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AttentionProbsCustom, AttentionProbsTilingData)
}
"""

host_operator_src="""
#include "attention_probs_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto shape = context->GetInputShape(0)->GetStorageShape();
    uint32_t dims = shape.GetDimNum();
    uint32_t rowLen = shape.GetDim(dims - 1);
    uint64_t rows = shape.GetShapeSize() / rowLen;
    uint32_t rowLenPad = (rowLen + 7) / 8 * 8;

    const float* sc = context->GetAttrs()->GetFloat(0);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint64_t perCore = (rows + cores - 1) / cores;
    uint32_t used = (uint32_t)((rows + perCore - 1) / perCore);

    // in + out double-buffered, plus one work row: keep it under ~160KB
    uint32_t rowsPerTile = (160 * 1024 / sizeof(float) - rowLenPad) / (4 * rowLenPad);
    if (rowsPerTile == 0) return ge::GRAPH_FAILED;
    if (rowsPerTile > 32) rowsPerTile = 32;

    AttentionProbsTilingData td;
    td.set_totalRows(rows);
    td.set_rowLen(rowLen);
    td.set_rowLenPad(rowLenPad);
    td.set_rowsPerCore(perCore);
    td.set_rowsPerTile(rowsPerTile);
    td.set_scale(sc ? *sc : 1.0f);

    context->SetBlockDim(used);
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
class AttentionProbsCustom : public OpDef {
public:
    explicit AttentionProbsCustom(const char* name) : OpDef(name)
    {
        this->Input("scores").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("probs").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("scale").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(AttentionProbsCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

// softmax(scale * s) over the last axis
class AttentionProbs {
public:
    __aicore__ inline AttentionProbs() {}
    __aicore__ inline void Init(GM_ADDR s, GM_ADDR p, const AttentionProbsTilingData& td)
    {
        len = td.rowLen; lenPad = td.rowLenPad; tileRows = td.rowsPerTile; scale = td.scale;
        uint64_t begin = GetBlockIdx() * td.rowsPerCore;
        uint64_t end = begin + td.rowsPerCore;
        if (end > td.totalRows) end = td.totalRows;
        myRows = end > begin ? end - begin : 0;

        sGm.SetGlobalBuffer((__gm__ float*)s + begin * len);
        pGm.SetGlobalBuffer((__gm__ float*)p + begin * len);
        pipe.InitBuffer(inQ, 2, tileRows * lenPad * sizeof(float));
        pipe.InitBuffer(outQ, 2, tileRows * lenPad * sizeof(float));
        pipe.InitBuffer(work, lenPad * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint64_t r = 0; r < myRows; r += tileRows) {
            uint32_t n = (myRows - r) < tileRows ? (uint32_t)(myRows - r) : tileRows;
            CopyIn(r, n);
            Compute(n);
            CopyOut(r, n);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t r, uint32_t n)
    {
        LocalTensor<float> x = inQ.AllocTensor<float>();
        DataCopyExtParams p{(uint16_t)n, (uint32_t)(len * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(x, sGm[r * len], p, pad);
        inQ.EnQue(x);
    }

    __aicore__ inline void VecToScalar()
    {
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
    }
    __aicore__ inline void ScalarToVec()
    {
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(e);
        WaitFlag<HardEvent::S_V>(e);
    }

    // halve with vector Max/Add while the halves stay 32B aligned, finish on the scalar unit
    __aicore__ inline float Fold(LocalTensor<float>& w, uint32_t n, bool takeMax)
    {
        while (n > 64 && (n % 16) == 0) {
            uint32_t half = n / 2;
            if (takeMax) {
                Max(w, w, w[half], half);
            } else {
                Add(w, w, w[half], half);
            }
            PipeBarrier<PIPE_V>();
            n = half;
        }
        VecToScalar();
        float r = w.GetValue(0);
        for (uint32_t i = 1; i < n; ++i) {
            float v = w.GetValue(i);
            r = takeMax ? (v > r ? v : r) : r + v;
        }
        ScalarToVec();
        return r;
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        LocalTensor<float> x = inQ.DeQue<float>();
        LocalTensor<float> y = outQ.AllocTensor<float>();
        LocalTensor<float> w = work.Get<float>();

        for (uint32_t i = 0; i < n; ++i) {
            LocalTensor<float> xr = x[i * lenPad];
            LocalTensor<float> yr = y[i * lenPad];
            Muls(yr, xr, scale, len);
            PipeBarrier<PIPE_V>();
            Adds(w, yr, 0.0f, len);
            PipeBarrier<PIPE_V>();
            float mx = Fold(w, len, true);

            Adds(yr, yr, -mx, len);
            PipeBarrier<PIPE_V>();
            Exp(yr, yr, len);
            PipeBarrier<PIPE_V>();
            Adds(w, yr, 0.0f, len);
            PipeBarrier<PIPE_V>();
            float sum = Fold(w, len, false);

            Muls(yr, yr, 1.0f / sum, len);
            PipeBarrier<PIPE_V>();
        }
        outQ.EnQue(y);
        inQ.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint64_t r, uint32_t n)
    {
        LocalTensor<float> y = outQ.DeQue<float>();
        DataCopyExtParams p{(uint16_t)n, (uint32_t)(len * sizeof(float)), 0, 0, 0};
        DataCopyPad(pGm[r * len], y, p);
        outQ.FreeTensor(y);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<TPosition::VECCALC> work;
    GlobalTensor<float> sGm, pGm;
    uint64_t myRows;
    uint32_t len, lenPad, tileRows;
    float scale;
};

extern "C" __global__ __aicore__ void attention_probs_custom(GM_ADDR scores, GM_ADDR probs, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    AttentionProbs op;
    op.Init(scores, probs, td);
    op.Process();
}
"""

python_bind_src="""
#include <cmath>
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor attention_probs_impl_npu(const at::Tensor& scores, double scale)
{
    at::Tensor probs = at::empty_like(scores);
    float s = static_cast<float>(scale);
    EXEC_NPU_CMD(aclnnAttentionProbsCustom, scores, s, probs);
    return probs;
}

// softmax(Q K^T / sqrt(d)) V : the two batched GEMMs run on the cube, the softmax on the custom kernel
at::Tensor sdpa_forward_npu(const at::Tensor& Q, const at::Tensor& K, const at::Tensor& V)
{
    double scale = 1.0 / std::sqrt(static_cast<double>(Q.size(-1)));
    at::Tensor s = at::matmul(Q, K.transpose(-2, -1)).contiguous();
    at::Tensor p = attention_probs_impl_npu(s, scale);
    return at::matmul(p, V);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("attention_probs_custom", &attention_probs_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("attention_probs_custom", &attention_probs_impl_npu, "scaled softmax over the last axis");
    m.def("sdpa_forward", &sdpa_forward_npu, "scaled dot product attention");
}
"""
