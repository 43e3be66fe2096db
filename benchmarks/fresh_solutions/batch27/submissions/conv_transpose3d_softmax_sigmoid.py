project_json_src='''
[
    {
        "op": "ConvTranspose3dSoftmaxSigmoidCustom",
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
BEGIN_TILING_DATA_DEF(ConvTranspose3dSoftmaxSigmoidCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, spatial);        // D * H * W
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);        // spatial positions per tile (multiple of 8)
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerBatch);
  TILING_DATA_FIELD_DEF(uint32_t, totalTasks);
  TILING_DATA_FIELD_DEF(uint32_t, tasksPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, remainTasks);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTranspose3dSoftmaxSigmoidCustom, ConvTranspose3dSoftmaxSigmoidCustomTilingData)
}
"""

host_operator_src="""
#include "conv_transpose3d_softmax_sigmoid_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
const uint32_t BUF_FLOATS = 8192;   // floats per (C x tileLen) buffer, 32 KB

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvTranspose3dSoftmaxSigmoidCustomTilingData tiling;
    const auto& shape = context->GetInputShape(0)->GetStorageShape();
    if (shape.GetDimNum() < 3) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = shape.GetDim(0);
    uint32_t c = shape.GetDim(1);
    uint32_t spatial = 1;
    for (size_t i = 2; i < shape.GetDimNum(); i++) {
        spatial *= shape.GetDim(i);
    }
    if (c == 0 || c > BUF_FLOATS / 8) {
        return ge::GRAPH_FAILED;
    }

    uint32_t tileLen = BUF_FLOATS / c / 8 * 8;
    uint32_t spatialAligned = (spatial + 7) / 8 * 8;
    if (tileLen > spatialAligned) {
        tileLen = spatialAligned;
    }
    uint32_t tilesPerBatch = (spatial + tileLen - 1) / tileLen;
    uint32_t totalTasks = n * tilesPerBatch;

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    uint32_t blockDim = totalTasks < coreNum ? totalTasks : coreNum;
    if (blockDim == 0) {
        blockDim = 1;
    }

    tiling.set_channels(c);
    tiling.set_spatial(spatial);
    tiling.set_tileLen(tileLen);
    tiling.set_tilesPerBatch(tilesPerBatch);
    tiling.set_totalTasks(totalTasks);
    tiling.set_tasksPerCore(totalTasks / blockDim);
    tiling.set_remainTasks(totalTasks % blockDim);

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
class ConvTranspose3dSoftmaxSigmoidCustom : public OpDef {
public:
    explicit ConvTranspose3dSoftmaxSigmoidCustom(const char* name) : OpDef(name)
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

OP_ADD(ConvTranspose3dSoftmaxSigmoidCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// y = sigmoid(softmax(x, dim=1)) on an (N, C, S) view of the conv-transpose output.
// A task is a block of tileLen spatial positions of one batch item; all C channels
// of that block are brought into UB as a [C, tileLen] matrix (strided GM read),
// so the channel reduction is a sequence of element-wise vector ops.
class KernelSoftmaxSigmoid {
public:
    __aicore__ inline KernelSoftmaxSigmoid() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t channels, uint32_t spatial, uint32_t tileLen,
                                uint32_t tilesPerBatch, uint32_t tasksPerCore, uint32_t remainTasks)
    {
        this->channels = channels;
        this->spatial = spatial;
        this->tileLen = tileLen;
        this->tilesPerBatch = tilesPerBatch;
        uint32_t blockIdx = AscendC::GetBlockIdx();
        if (blockIdx < remainTasks) {
            taskCount = tasksPerCore + 1;
            taskStart = blockIdx * (tasksPerCore + 1);
        } else {
            taskCount = tasksPerCore;
            taskStart = remainTasks * (tasksPerCore + 1) + (blockIdx - remainTasks) * tasksPerCore;
        }
        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        uint32_t matLen = channels * tileLen;
        pipe.InitBuffer(inQueue, BUFFER_NUM, matLen * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, matLen * sizeof(float));
        pipe.InitBuffer(maxBuf, tileLen * sizeof(float));
        pipe.InitBuffer(sumBuf, tileLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < taskCount; i++) {
            uint32_t task = taskStart + i;
            uint32_t n = task / tilesPerBatch;
            uint32_t t = task % tilesPerBatch;
            uint32_t start = t * tileLen;
            uint32_t len = (spatial - start) < tileLen ? (spatial - start) : tileLen;
            uint64_t base = static_cast<uint64_t>(n) * channels * spatial + start;
            CopyIn(base, len);
            Compute(len);
            CopyOut(base, len);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t base, uint32_t len)
    {
        AscendC::LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        uint32_t lenAligned = (len + 7) / 8 * 8;
        AscendC::DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(channels);
        cp.blockLen = len * static_cast<uint32_t>(sizeof(float));
        cp.srcStride = (spatial - len) * static_cast<uint32_t>(sizeof(float));   // bytes between channels in GM
        cp.dstStride = (tileLen - lenAligned) / 8;                             // 32B blocks between rows in UB
        cp.rsv = 0;
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(xLocal, xGm[base], cp, pad);
        inQueue.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        AscendC::LocalTensor<float> xLocal = inQueue.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        AscendC::LocalTensor<float> maxLocal = maxBuf.Get<float>();
        AscendC::LocalTensor<float> sumLocal = sumBuf.Get<float>();
        uint32_t lenA = (len + 7) / 8 * 8;
        uint32_t matLen = channels * tileLen;

        // channel max
        AscendC::Adds(maxLocal, xLocal, 0.0f, lenA);
        for (uint32_t c = 1; c < channels; c++) {
            AscendC::Max(maxLocal, maxLocal, xLocal[c * tileLen], lenA);
        }
        // e = exp(x - max)
        for (uint32_t c = 0; c < channels; c++) {
            AscendC::Sub(xLocal[c * tileLen], xLocal[c * tileLen], maxLocal, lenA);
        }
        AscendC::Exp(xLocal, xLocal, matLen);
        // channel sum
        AscendC::Adds(sumLocal, xLocal, 0.0f, lenA);
        for (uint32_t c = 1; c < channels; c++) {
            AscendC::Add(sumLocal, sumLocal, xLocal[c * tileLen], lenA);
        }
        // p = e / sum
        for (uint32_t c = 0; c < channels; c++) {
            AscendC::Div(yLocal[c * tileLen], xLocal[c * tileLen], sumLocal, lenA);
        }
        // sigmoid(p) = 1 / (1 + exp(-p))
        AscendC::Muls(yLocal, yLocal, -1.0f, matLen);
        AscendC::Exp(yLocal, yLocal, matLen);
        AscendC::Adds(yLocal, yLocal, 1.0f, matLen);
        AscendC::Reciprocal(yLocal, yLocal, matLen);

        outQueue.EnQue<float>(yLocal);
        inQueue.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint64_t base, uint32_t len)
    {
        AscendC::LocalTensor<float> yLocal = outQueue.DeQue<float>();
        uint32_t lenAligned = (len + 7) / 8 * 8;
        AscendC::DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(channels);
        cp.blockLen = len * static_cast<uint32_t>(sizeof(float));
        cp.srcStride = (tileLen - lenAligned) / 8;                             // UB gap in 32B blocks
        cp.dstStride = (spatial - len) * static_cast<uint32_t>(sizeof(float)); // GM gap in bytes
        cp.rsv = 0;
        AscendC::DataCopyPad(yGm[base], yLocal, cp);
        outQueue.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> maxBuf, sumBuf;
    AscendC::GlobalTensor<float> xGm, yGm;
    uint32_t channels, spatial, tileLen, tilesPerBatch, taskStart, taskCount;
};

extern "C" __global__ __aicore__ void conv_transpose3d_softmax_sigmoid_custom(GM_ADDR x, GM_ADDR y,
                                                                              GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelSoftmaxSigmoid op;
    op.Init(x, y, tiling_data.channels, tiling_data.spatial, tiling_data.tileLen, tiling_data.tilesPerBatch,
            tiling_data.tasksPerCore, tiling_data.remainTasks);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv_transpose3d_softmax_sigmoid_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                            const at::Tensor& bias, int64_t stride,
                                                            int64_t padding, int64_t output_padding)
{
    // transposed convolution via the stock op, softmax(dim=1) + sigmoid in the custom kernel
    at::Tensor conv = at::conv_transpose3d(x, weight, bias,
                                           {stride, stride, stride},
                                           {padding, padding, padding},
                                           {output_padding, output_padding, output_padding},
                                           1, {1, 1, 1}).contiguous();
    at::Tensor result = at::empty_like(conv);
    EXEC_NPU_CMD(aclnnConvTranspose3dSoftmaxSigmoidCustom, conv, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transpose3d_softmax_sigmoid_custom", &conv_transpose3d_softmax_sigmoid_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transpose3d_softmax_sigmoid_custom", &conv_transpose3d_softmax_sigmoid_custom_impl_npu,
          "sigmoid(softmax(conv_transpose3d(x), dim=1))");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, output_padding, bias=True):
        super(ModelNew, self).__init__()
        self.conv_transpose = torch.nn.ConvTranspose3d(in_channels, out_channels, kernel_size, stride=stride,
                                                       padding=padding, output_padding=output_padding, bias=bias)
        self.stride = stride
        self.padding = padding
        self.output_padding = output_padding

    def forward(self, x):
        bias = self.conv_transpose.bias
        if bias is None:
            bias = torch.zeros(self.conv_transpose.out_channels, device=x.device, dtype=x.dtype)
        return custom_ops_lib.conv_transpose3d_softmax_sigmoid_custom(
            x, self.conv_transpose.weight, bias, self.stride, self.padding, self.output_padding)
'''
