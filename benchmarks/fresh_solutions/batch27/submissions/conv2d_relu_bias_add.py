project_json_src='''
[
    {
        "op": "Conv2dReluBiasAddCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "bias",
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
BEGIN_TILING_DATA_DEF(Conv2dReluBiasAddCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, planeSize);     // H * W of the conv output
  TILING_DATA_FIELD_DEF(uint32_t, totalPlanes);   // N * C
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, remainPlanes);
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Conv2dReluBiasAddCustom, Conv2dReluBiasAddCustomTilingData)
}
"""

host_operator_src="""
#include "conv2d_relu_bias_add_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
const uint32_t TILE_LENGTH = 8192;   // floats per UB tile (32 KB)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    Conv2dReluBiasAddCustomTilingData tiling;
    const gert::StorageShape* xShape = context->GetInputShape(0);
    const auto& shape = xShape->GetStorageShape();
    if (shape.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = shape.GetDim(0);
    uint32_t c = shape.GetDim(1);
    uint32_t planeSize = shape.GetDim(2) * shape.GetDim(3);
    uint32_t totalPlanes = n * c;

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    if (coreNum == 0) {
        coreNum = 1;
    }
    uint32_t blockDim = totalPlanes < coreNum ? totalPlanes : coreNum;
    if (blockDim == 0) {
        blockDim = 1;
    }

    uint32_t tileLength = planeSize < TILE_LENGTH ? planeSize : TILE_LENGTH;
    tileLength = (tileLength + 7) / 8 * 8;

    tiling.set_channels(c);
    tiling.set_planeSize(planeSize);
    tiling.set_totalPlanes(totalPlanes);
    tiling.set_planesPerCore(totalPlanes / blockDim);
    tiling.set_remainPlanes(totalPlanes % blockDim);
    tiling.set_tileLength(tileLength);

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
    const gert::Shape* xShape = context->GetInputShape(0);
    gert::Shape* yShape = context->GetOutputShape(0);
    *yShape = *xShape;
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class Conv2dReluBiasAddCustom : public OpDef {
public:
    explicit Conv2dReluBiasAddCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias")
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

OP_ADD(Conv2dReluBiasAddCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// y[n, c, :, :] = relu(x[n, c, :, :]) + bias[c]
// Each core owns a contiguous range of (n, c) planes. A plane (H*W floats) is
// not necessarily 32B aligned, so GM<->UB moves use DataCopyPad.
class KernelConv2dReluBiasAdd {
public:
    __aicore__ inline KernelConv2dReluBiasAdd() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR bias, GM_ADDR y,
                                uint32_t channels, uint32_t planeSize, uint32_t planesPerCore,
                                uint32_t remainPlanes, uint32_t tileLength)
    {
        this->channels = channels;
        this->planeSize = planeSize;
        this->tileLength = tileLength;

        uint32_t blockIdx = AscendC::GetBlockIdx();
        if (blockIdx < remainPlanes) {
            this->planeCount = planesPerCore + 1;
            this->planeStart = blockIdx * (planesPerCore + 1);
        } else {
            this->planeCount = planesPerCore;
            this->planeStart = remainPlanes * (planesPerCore + 1) + (blockIdx - remainPlanes) * planesPerCore;
        }

        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);
        biasGm.SetGlobalBuffer((__gm__ float*)bias, channels);

        this->biasAligned = (channels + 7) / 8 * 8;
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(biasQueue, 1, biasAligned * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (planeCount == 0) {
            return;
        }
        LoadBias();
        AscendC::LocalTensor<float> biasLocal = biasQueue.DeQue<float>();
        uint32_t tileNum = (planeSize + tileLength - 1) / tileLength;
        for (uint32_t p = 0; p < planeCount; p++) {
            uint64_t plane = planeStart + p;
            uint32_t ch = static_cast<uint32_t>(plane % channels);
            float b = biasLocal.GetValue(ch);
            uint64_t base = plane * planeSize;
            for (uint32_t t = 0; t < tileNum; t++) {
                uint32_t offset = t * tileLength;
                uint32_t len = (t == tileNum - 1) ? (planeSize - offset) : tileLength;
                CopyIn(base + offset, len);
                Compute(len, b);
                CopyOut(base + offset, len);
            }
        }
        biasQueue.FreeTensor(biasLocal);
    }

private:
    __aicore__ inline void LoadBias()
    {
        AscendC::LocalTensor<float> biasLocal = biasQueue.AllocTensor<float>();
        AscendC::DataCopyExtParams params{1, channels * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> padParams{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(biasLocal, biasGm, params, padParams);
        biasQueue.EnQue(biasLocal);
    }

    __aicore__ inline void CopyIn(uint64_t offset, uint32_t len)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        AscendC::DataCopyExtParams params{1, len * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> padParams{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(xLocal, xGm[offset], params, padParams);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t len, float b)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        uint32_t alignedLen = (len + 7) / 8 * 8;
        AscendC::Relu(yLocal, xLocal, alignedLen);
        AscendC::Adds(yLocal, yLocal, b, alignedLen);
        outQueueY.EnQue<float>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint64_t offset, uint32_t len)
    {
        AscendC::LocalTensor<float> yLocal = outQueueY.DeQue<float>();
        AscendC::DataCopyExtParams params{1, len * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[offset], yLocal, params);
        outQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> biasQueue;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
    AscendC::GlobalTensor<float> biasGm;
    uint32_t channels;
    uint32_t planeSize;
    uint32_t tileLength;
    uint32_t biasAligned;
    uint32_t planeStart;
    uint32_t planeCount;
};

extern "C" __global__ __aicore__ void conv2d_relu_bias_add_custom(GM_ADDR x, GM_ADDR bias, GM_ADDR y,
                                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelConv2dReluBiasAdd op;
    op.Init(x, bias, y, tiling_data.channels, tiling_data.planeSize, tiling_data.planesPerCore,
            tiling_data.remainPlanes, tiling_data.tileLength);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// The convolution itself runs through the stock NPU conv; the custom kernel
// fuses the ReLU and the per-channel bias add that follow it.
at::Tensor conv2d_relu_bias_add_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                const at::Tensor& conv_bias, const at::Tensor& bias)
{
    at::Tensor conv = at::conv2d(x, weight, conv_bias).contiguous();
    at::Tensor bias_flat = bias.reshape({-1}).contiguous();
    at::Tensor result = at::empty_like(conv);
    EXEC_NPU_CMD(aclnnConv2dReluBiasAddCustom, conv, bias_flat, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv2d_relu_bias_add_custom", &conv2d_relu_bias_add_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv2d_relu_bias_add_custom", &conv2d_relu_bias_add_custom_impl_npu,
          "relu(conv2d(x)) + bias");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, bias_shape):
        super(ModelNew, self).__init__()
        self.conv = torch.nn.Conv2d(in_channels, out_channels, kernel_size)
        self.bias = torch.nn.Parameter(torch.randn(bias_shape))

    def forward(self, x):
        return custom_ops_lib.conv2d_relu_bias_add_custom(x, self.conv.weight, self.conv.bias, self.bias)
'''
