project_json_src='''
[
    {
        "op": "LogSoftmaxCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": [
                    "ND"
                ],
                "type": [
                    "float"
                ]
            }
        ],
        "output_desc": [
            {
                "name": "y",
                "param_type": "required",
                "format": [
                    "ND"
                ],
                "type": [
                    "float"
                ]
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LogSoftmaxCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, dim);
  TILING_DATA_FIELD_DEF(uint32_t, rowsBase);
  TILING_DATA_FIELD_DEF(uint32_t, rowsRem);
  TILING_DATA_FIELD_DEF(uint32_t, chunk);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LogSoftmaxCustom, LogSoftmaxCustomTilingData)
}
"""

host_operator_src="""
#include "log_softmax_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
const uint32_t CHUNK = 4096;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aivNum = plat.GetCoreNumAiv();

    auto shape = context->GetInputShape(0)->GetOriginShape();
    if (shape.GetDimNum() != 2) {
        return ge::GRAPH_FAILED;   // (batch_size, dim) with log_softmax over dim=1
    }
    uint32_t batch = static_cast<uint32_t>(shape.GetDim(0));
    uint32_t dim = static_cast<uint32_t>(shape.GetDim(1));

    uint32_t blockDim = batch < aivNum ? batch : aivNum;
    if (blockDim == 0) {
        blockDim = 1;
    }
    uint32_t chunk = dim < CHUNK ? (dim + 7) / 8 * 8 : CHUNK;

    LogSoftmaxCustomTilingData tiling;
    tiling.set_batch(batch);
    tiling.set_dim(dim);
    tiling.set_rowsBase(batch / blockDim);
    tiling.set_rowsRem(batch % blockDim);
    tiling.set_chunk(chunk);

    context->SetBlockDim(blockDim);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}


namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x1_shape = context->GetInputShape(0);
    gert::Shape* y_shape = context->GetOutputShape(0);
    *y_shape = *x1_shape;
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    const auto inputDataType = context->GetInputDataType(0);
    context->SetOutputDataType(0, inputDataType);
    return ge::GRAPH_SUCCESS;
}
}


namespace ops {
class LogSoftmaxCustom : public OpDef {
public:
    explicit LogSoftmaxCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);

        this->AICore()
            .SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(LogSoftmaxCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr float NEG_BIG = -3.0e38f;

// log_softmax(x)[i] = x[i] - (M + log(sum_j exp(x[j] - M)))
//
// A row has 393216 elements, far beyond UB, so the log-sum-exp is computed in one streaming pass
// with a per-lane online softmax: every lane k of a chunk-sized vector keeps its own running max m_k
// and running sum s_k (rescaled whenever m_k grows). Only at the end of the row are the lanes merged:
//   M = max_k m_k,   S = sum_k s_k * exp(m_k - M)
// A second pass writes x - lse.
class KernelLogSoftmax {
public:
    __aicore__ inline KernelLogSoftmax() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const LogSoftmaxCustomTilingData &t)
    {
        dim = t.dim;
        chunk = t.chunk;
        uint32_t bid = GetBlockIdx();
        rowNum = t.rowsBase + (bid < t.rowsRem ? 1 : 0);
        rowOff = bid * t.rowsBase + (bid < t.rowsRem ? bid : t.rowsRem);

        uint64_t n = static_cast<uint64_t>(t.batch) * dim;
        xGm.SetGlobalBuffer((__gm__ float *)x, n);
        yGm.SetGlobalBuffer((__gm__ float *)y, n);

        pipe.InitBuffer(inQue, BUFFER_NUM, chunk * sizeof(float));
        pipe.InitBuffer(outQue, BUFFER_NUM, chunk * sizeof(float));
        pipe.InitBuffer(runMaxA, chunk * sizeof(float));
        pipe.InitBuffer(runMaxB, chunk * sizeof(float));
        pipe.InitBuffer(runSum, chunk * sizeof(float));
        pipe.InitBuffer(scratch, chunk * sizeof(float));
        pipe.InitBuffer(redBuf, 64 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < rowNum; ++r) {
            uint64_t rowBase = static_cast<uint64_t>(rowOff + r) * dim;
            float lse = LogSumExp(rowBase);
            WriteRow(rowBase, lse);
        }
    }

private:
    __aicore__ inline uint32_t ChunkLen(uint32_t c, uint32_t nChunks)
    {
        return (c + 1 == nChunks) ? dim - c * chunk : chunk;
    }

    __aicore__ inline void Load(uint64_t off, uint32_t len)
    {
        LocalTensor<float> buf = inQue.AllocTensor<float>();
        DataCopyExtParams cp{1, len * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pp{false, 0, 0, 0.0f};
        DataCopyPad(buf, xGm[off], cp, pp);
        inQue.EnQue(buf);
    }

    __aicore__ inline void SyncVToS()
    {
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
    }

    __aicore__ inline float LogSumExp(uint64_t rowBase)
    {
        LocalTensor<float> m = runMaxA.Get<float>();
        LocalTensor<float> mNew = runMaxB.Get<float>();
        LocalTensor<float> s = runSum.Get<float>();
        LocalTensor<float> tmp = scratch.Get<float>();

        Duplicate(m, NEG_BIG, chunk);
        Duplicate(s, 0.0f, chunk);
        PipeBarrier<PIPE_V>();

        uint32_t nChunks = (dim + chunk - 1) / chunk;
        for (uint32_t c = 0; c < nChunks; ++c) {
            uint32_t len = ChunkLen(c, nChunks);
            Load(rowBase + static_cast<uint64_t>(c) * chunk, len);
            LocalTensor<float> xv = inQue.DeQue<float>();

            if (len < chunk) {
                // tail chunk: lanes >= len must carry their old max over to the swapped buffer
                Adds(mNew, m, 0.0f, chunk);
                PipeBarrier<PIPE_V>();
            }
            Max(mNew, m, xv, len);              // m' = max(m, x)
            PipeBarrier<PIPE_V>();
            Sub(m, m, mNew, len);               // m - m'  (<= 0)
            Sub(tmp, xv, mNew, len);            // x - m'
            PipeBarrier<PIPE_V>();
            Exp(m, m, len);
            Exp(tmp, tmp, len);
            PipeBarrier<PIPE_V>();
            Mul(s, s, m, len);                  // s = s * exp(m - m') + exp(x - m')
            PipeBarrier<PIPE_V>();
            Add(s, s, tmp, len);
            PipeBarrier<PIPE_V>();
            inQue.FreeTensor(xv);

            // ping-pong the running max buffers instead of copying
            LocalTensor<float> sw = m;
            m = mNew;
            mNew = sw;
        }

        // merge the lanes
        LocalTensor<float> red = redBuf.Get<float>();
        ReduceMax<float>(red, m, tmp, chunk, false);
        SyncVToS();
        float rowMax = red.GetValue(0);

        Adds(tmp, m, -rowMax, chunk);
        PipeBarrier<PIPE_V>();
        Exp(tmp, tmp, chunk);
        PipeBarrier<PIPE_V>();
        Mul(tmp, tmp, s, chunk);
        PipeBarrier<PIPE_V>();
        ReduceSum<float>(red, tmp, mNew, chunk);
        PipeBarrier<PIPE_V>();
        Ln(red, red, 1);
        SyncVToS();
        return rowMax + red.GetValue(0);
    }

    __aicore__ inline void WriteRow(uint64_t rowBase, float lse)
    {
        uint32_t nChunks = (dim + chunk - 1) / chunk;
        for (uint32_t c = 0; c < nChunks; ++c) {
            uint32_t len = ChunkLen(c, nChunks);
            uint64_t off = rowBase + static_cast<uint64_t>(c) * chunk;
            Load(off, len);

            LocalTensor<float> xv = inQue.DeQue<float>();
            LocalTensor<float> yv = outQue.AllocTensor<float>();
            Adds(yv, xv, -lse, len);
            outQue.EnQue(yv);
            inQue.FreeTensor(xv);

            yv = outQue.DeQue<float>();
            DataCopyExtParams cp{1, len * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
            DataCopyPad(yGm[off], yv, cp);
            outQue.FreeTensor(yv);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQue;
    TBuf<QuePosition::VECCALC> runMaxA, runMaxB, runSum, scratch, redBuf;
    GlobalTensor<float> xGm, yGm;
    uint32_t dim = 0;
    uint32_t chunk = 0;
    uint32_t rowNum = 0;
    uint32_t rowOff = 0;
};

extern "C" __global__ __aicore__ void log_softmax_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelLogSoftmax op;
    op.Init(x, y, tilingData);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor log_softmax_custom_impl_npu(const at::Tensor& x) {
    TORCH_CHECK(x.dim() == 2, "log_softmax_custom expects (batch, dim) input");
    at::Tensor input = x.contiguous();
    at::Tensor result = at::empty_like(input);
    EXEC_NPU_CMD(aclnnLogSoftmaxCustom, input, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("log_softmax_custom", &log_softmax_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("log_softmax_custom", &log_softmax_custom_impl_npu, "log_softmax over dim=1");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, dim: int = 1) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return custom_ops_lib.log_softmax_custom(x)
'''
