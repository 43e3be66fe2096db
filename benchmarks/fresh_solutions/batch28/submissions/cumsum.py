project_json_src='''
[
    {
        "op": "CumsumCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
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
BEGIN_TILING_DATA_DEF(CumsumCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);          // product of all leading dims
  TILING_DATA_FIELD_DEF(uint32_t, cols);          // scan length (last dim)
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tailRows);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);       // scan tile, multiple of 8
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(CumsumCustom, CumsumCustomTilingData)
}
"""

host_operator_src="""
#include "cumsum_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_TILE = 4096;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    CumsumCustomTilingData tiling;
    const auto& shape = context->GetInputShape(0)->GetStorageShape();
    uint32_t dimNum = shape.GetDimNum();
    if (dimNum < 1) {
        return ge::GRAPH_FAILED;
    }
    uint32_t cols = shape.GetDim(dimNum - 1);
    uint32_t rows = 1;
    for (uint32_t i = 0; i + 1 < dimNum; ++i) {
        rows *= shape.GetDim(i);
    }

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    if (coreNum == 0) {
        coreNum = 1;
    }
    uint32_t usedCores = rows < coreNum ? rows : coreNum;
    if (usedCores == 0) {
        usedCores = 1;
    }
    uint32_t colsAlign = (cols + 7) / 8 * 8;
    uint32_t tileLen = colsAlign < MAX_TILE ? colsAlign : MAX_TILE;
    if (tileLen == 0) {
        tileLen = 8;
    }

    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_rowsPerCore(rows / usedCores);
    tiling.set_tailRows(rows % usedCores);
    tiling.set_tileLen(tileLen);

    context->SetBlockDim(usedCores);
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
class CumsumCustom : public OpDef {
public:
    explicit CumsumCustom(const char* name) : OpDef(name)
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
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(CumsumCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t SMALL_SHIFTS = 3;   // shifts 1, 2, 4 are not 32B aligned -> Gather

// Inclusive prefix sum along the last dim.
// Each tile is scanned with Hillis-Steele steps: x[i] += x[i - s] for
// s = 1, 2, 4, ..., tileLen/2. Shifts below 8 floats use Gather with a
// precomputed offset table (out-of-range lanes read a zero slot); shifts of 8
// or more are plain vector adds on 32B-aligned sub-tensors. The running total
// of previous tiles of the row is added as a scalar carry.
class KernelCumsum {
public:
    __aicore__ inline KernelCumsum() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t cols, uint32_t rowsPerCore,
                                uint32_t tailRows, uint32_t tileLen)
    {
        this->cols = cols;
        this->tileLen = tileLen;

        uint32_t blockIdx = GetBlockIdx();
        if (blockIdx < tailRows) {
            rowCount = rowsPerCore + 1;
            rowStart = blockIdx * (rowsPerCore + 1);
        } else {
            rowCount = rowsPerCore;
            rowStart = tailRows * (rowsPerCore + 1) + (blockIdx - tailRows) * rowsPerCore;
        }

        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        // +8 floats behind every scan buffer: the zero slot used by Gather
        pipe.InitBuffer(inQueue, BUFFER_NUM, (tileLen + 8) * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(pingBuf, (tileLen + 8) * sizeof(float));
        pipe.InitBuffer(offBuf, SMALL_SHIFTS * tileLen * sizeof(uint32_t));
        BuildOffsets();
    }

    __aicore__ inline void Process()
    {
        uint32_t tiles = (cols + tileLen - 1) / tileLen;
        for (uint32_t r = 0; r < rowCount; ++r) {
            uint64_t rowOff = static_cast<uint64_t>(rowStart + r) * cols;
            float carry = 0.0f;
            for (uint32_t t = 0; t < tiles; ++t) {
                uint32_t off = t * tileLen;
                uint32_t len = cols - off < tileLen ? cols - off : tileLen;
                CopyIn(rowOff + off, len);
                carry = Compute(len, carry);
                CopyOut(rowOff + off, len);
            }
        }
    }

private:
    __aicore__ inline void BuildOffsets()
    {
        LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
        uint32_t zeroByte = tileLen * sizeof(float);
        for (uint32_t k = 0; k < SMALL_SHIFTS; ++k) {
            uint32_t s = 1u << k;
            for (uint32_t i = 0; i < tileLen; ++i) {
                uint32_t v = i >= s ? (i - s) * static_cast<uint32_t>(sizeof(float)) : zeroByte;
                off.SetValue(k * tileLen + i, v);
            }
        }
        event_t evt = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(evt);
        WaitFlag<HardEvent::S_V>(evt);
    }

    __aicore__ inline void CopyIn(uint64_t gmOff, uint32_t len)
    {
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> padParams{false, 0, 0, 0.0f};
        DataCopyPad(xLocal, xGm[gmOff], params, padParams);
        inQueue.EnQue(xLocal);
    }

    __aicore__ inline float Compute(uint32_t len, float carry)
    {
        LocalTensor<float> xLocal = inQueue.DeQue<float>();
        LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        LocalTensor<float> ping = pingBuf.Get<float>();
        LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();

        // lanes past len (tail padding) only influence lanes past len, which are
        // never written back, so the scan can run on the 8-aligned length.
        uint32_t n = (len + 7) / 8 * 8;
        LocalTensor<float> src = xLocal;
        LocalTensor<float> dst = ping;

        for (uint32_t k = 0; k < SMALL_SHIFTS; ++k) {
            uint32_t s = 1u << k;
            if (s >= n) {
                break;
            }
            Duplicate(src[tileLen], 0.0f, 8);
            PipeBarrier<PIPE_V>();
            Gather(dst, src, off[k * tileLen], 0, n);
            PipeBarrier<PIPE_V>();
            Add(dst, dst, src, n);
            PipeBarrier<PIPE_V>();
            LocalTensor<float> t = src;
            src = dst;
            dst = t;
        }
        for (uint32_t s = 8; s < n; s <<= 1) {
            Adds(dst, src, 0.0f, s);                 // first s lanes unchanged
            Add(dst[s], src[s], src, n - s);          // x[i] + x[i - s]
            PipeBarrier<PIPE_V>();
            LocalTensor<float> t = src;
            src = dst;
            dst = t;
        }

        Adds(yLocal, src, carry, n);
        event_t evt = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(evt);
        WaitFlag<HardEvent::V_S>(evt);
        float newCarry = yLocal.GetValue(len - 1);

        outQueue.EnQue<float>(yLocal);
        inQueue.FreeTensor(xLocal);
        return newCarry;
    }

    __aicore__ inline void CopyOut(uint64_t gmOff, uint32_t len)
    {
        LocalTensor<float> yLocal = outQueue.DeQue<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[gmOff], yLocal, params);
        outQueue.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<QuePosition::VECCALC> pingBuf;
    TBuf<QuePosition::VECCALC> offBuf;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    uint32_t cols;
    uint32_t tileLen;
    uint32_t rowStart;
    uint32_t rowCount;
};

extern "C" __global__ __aicore__ void cumsum_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelCumsum op;
    op.Init(x, y, tilingData.cols, tilingData.rowsPerCore, tilingData.tailRows, tilingData.tileLen);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// The kernel scans along the last dimension; other dims are moved there first.
at::Tensor cumsum_custom_impl_npu(const at::Tensor& x, int64_t dim)
{
    int64_t d = dim < 0 ? dim + x.dim() : dim;
    TORCH_CHECK(d >= 0 && d < x.dim(), "cumsum: dim out of range");
    bool moved = d != x.dim() - 1;
    at::Tensor src = moved ? x.transpose(d, -1).contiguous() : x.contiguous();
    at::Tensor result = at::empty_like(src);
    EXEC_NPU_CMD(aclnnCumsumCustom, src, result);
    if (moved) {
        result = result.transpose(d, -1).contiguous();
    }
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("cumsum_custom", &cumsum_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("cumsum_custom", &cumsum_custom_impl_npu, "cumulative sum along dim");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self, dim):
        super(ModelNew, self).__init__()
        self.dim = dim

    def forward(self, x):
        return custom_ops_lib.cumsum_custom(x, self.dim)
'''
