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
  TILING_DATA_FIELD_DEF(uint32_t, planeNum);      // N * C
  TILING_DATA_FIELD_DEF(uint32_t, channels);      // C
  TILING_DATA_FIELD_DEF(uint32_t, planeSize);     // H * W
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tailPlanes);    // first tailPlanes cores take one extra plane
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);    // elements per UB tile (multiple of 8)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Conv2dReluBiasAddCustom, Conv2dReluBiasAddCustomTilingData)
}
"""

host_operator_src="""
#include "conv2d_relu_bias_add_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_TILE = 8192;   // 32 KB of float per buffer

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
    uint32_t h = shape.GetDim(2);
    uint32_t w = shape.GetDim(3);

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    if (coreNum == 0) {
        coreNum = 1;
    }
    uint32_t planeNum = n * c;
    uint32_t usedCores = planeNum < coreNum ? planeNum : coreNum;
    if (usedCores == 0) {
        usedCores = 1;
    }
    uint32_t planeSize = h * w;
    uint32_t tile = planeSize < MAX_TILE ? planeSize : MAX_TILE;
    tile = (tile + 7) / 8 * 8;

    tiling.set_planeNum(planeNum);
    tiling.set_channels(c);
    tiling.set_planeSize(planeSize);
    tiling.set_planesPerCore(planeNum / usedCores);
    tiling.set_tailPlanes(planeNum % usedCores);
    tiling.set_tileLength(tile);

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

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// y[n, c, :, :] = relu(x[n, c, :, :]) + bias[c]
// x is the conv output (conv bias already applied). Each core owns a
// contiguous range of (n, c) planes, so the extra bias is a scalar per plane.
class KernelConv2dReluBiasAdd {
public:
    __aicore__ inline KernelConv2dReluBiasAdd() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR bias, GM_ADDR y,
                                uint32_t channels, uint32_t planeSize, uint32_t planesPerCore,
                                uint32_t tailPlanes, uint32_t tileLength)
    {
        this->channels = channels;
        this->planeSize = planeSize;
        this->tileLength = tileLength;

        uint32_t blockIdx = GetBlockIdx();
        if (blockIdx < tailPlanes) {
            this->planeCount = planesPerCore + 1;
            this->planeStart = blockIdx * (planesPerCore + 1);
        } else {
            this->planeCount = planesPerCore;
            this->planeStart = tailPlanes * (planesPerCore + 1) + (blockIdx - tailPlanes) * planesPerCore;
        }

        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);
        biasGm.SetGlobalBuffer((__gm__ float*)bias, channels);

        pipe.InitBuffer(inQueue, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileLength * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t tilesPerPlane = (planeSize + tileLength - 1) / tileLength;
        for (uint32_t p = 0; p < planeCount; ++p) {
            uint32_t plane = planeStart + p;
            uint32_t ch = plane % channels;
            float b = biasGm.GetValue(ch);
            uint64_t base = static_cast<uint64_t>(plane) * planeSize;
            for (uint32_t t = 0; t < tilesPerPlane; ++t) {
                uint32_t offset = t * tileLength;
                uint32_t len = planeSize - offset;
                if (len > tileLength) {
                    len = tileLength;
                }
                CopyIn(base + offset, len);
                Compute(len, b);
                CopyOut(base + offset, len);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t gmOffset, uint32_t len)
    {
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> padParams{false, 0, 0, 0.0f};
        DataCopyPad(xLocal, xGm[gmOffset], params, padParams);
        inQueue.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t len, float b)
    {
        LocalTensor<float> xLocal = inQueue.DeQue<float>();
        LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        Relu(yLocal, xLocal, len);
        Adds(yLocal, yLocal, b, len);
        outQueue.EnQue<float>(yLocal);
        inQueue.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint64_t gmOffset, uint32_t len)
    {
        LocalTensor<float> yLocal = outQueue.DeQue<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[gmOffset], yLocal, params);
        outQueue.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    GlobalTensor<float> biasGm;
    uint32_t channels;
    uint32_t planeSize;
    uint32_t tileLength;
    uint32_t planeStart;
    uint32_t planeCount;
};

extern "C" __global__ __aicore__ void conv2d_relu_bias_add_custom(GM_ADDR x, GM_ADDR bias, GM_ADDR y,
                                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelConv2dReluBiasAdd op;
    op.Init(x, bias, y, tilingData.channels, tilingData.planeSize, tilingData.planesPerCore,
            tilingData.tailPlanes, tilingData.tileLength);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// conv2d (+ conv bias) runs through the NPU conv kernel; ReLU and the extra
// per-channel bias are fused in the custom op.
at::Tensor conv2d_relu_bias_add_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                const at::Tensor& conv_bias, const at::Tensor& bias)
{
    at::Tensor conv = at::conv2d(x, weight, conv_bias, {1, 1}, {0, 0}, {1, 1}, 1).contiguous();
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
          "conv2d -> relu -> + bias");
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
