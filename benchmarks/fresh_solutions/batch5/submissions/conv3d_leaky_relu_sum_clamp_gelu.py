project_json_src='''
[
    {
        "op": "Conv3dLeakyReluSumClampGeluCustom",
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
            },
            {
                "name": "sum_tensor",
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
BEGIN_TILING_DATA_DEF(Conv3dLeakyReluSumClampGeluCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planeNum);      // N * C
  TILING_DATA_FIELD_DEF(uint32_t, planeLen);      // D * H * W of the conv output
  TILING_DATA_FIELD_DEF(uint32_t, channels);      // C
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore); // planes handled by every core
  TILING_DATA_FIELD_DEF(uint32_t, extraPlanes);   // first extraPlanes cores take one more
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);       // elements per UB tile
  TILING_DATA_FIELD_DEF(float, negativeSlope);
  TILING_DATA_FIELD_DEF(float, clampMin);
  TILING_DATA_FIELD_DEF(float, clampMax);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Conv3dLeakyReluSumClampGeluCustom, Conv3dLeakyReluSumClampGeluCustomTilingData)
}
"""

host_operator_src="""
#include "conv3d_leaky_relu_sum_clamp_gelu_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// 4 float buffers live in UB at once (2x in, 2x out) plus one scratch tile
constexpr uint32_t TILE_LEN = 8192;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    Conv3dLeakyReluSumClampGeluCustomTilingData tiling;
    const gert::StorageShape* xShape = context->GetInputShape(0);
    const auto& shape = xShape->GetStorageShape();
    if (shape.GetDimNum() != 5) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = shape.GetDim(0);
    uint32_t c = shape.GetDim(1);
    uint32_t planeLen = shape.GetDim(2) * shape.GetDim(3) * shape.GetDim(4);
    uint32_t planeNum = n * c;

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    if (coreNum == 0) {
        coreNum = 1;
    }
    if (coreNum > planeNum) {
        coreNum = planeNum;
    }

    uint32_t tileLen = TILE_LEN;
    if (planeLen < tileLen) {
        // round the small plane up to a whole 32B block
        tileLen = (planeLen + 7) / 8 * 8;
    }

    tiling.set_planeNum(planeNum);
    tiling.set_planeLen(planeLen);
    tiling.set_channels(c);
    tiling.set_planesPerCore(planeNum / coreNum);
    tiling.set_extraPlanes(planeNum % coreNum);
    tiling.set_tileLen(tileLen);
    tiling.set_negativeSlope(0.2f);
    tiling.set_clampMin(-1.0f);
    tiling.set_clampMax(1.0f);

    context->SetBlockDim(coreNum);
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
class Conv3dLeakyReluSumClampGeluCustom : public OpDef {
public:
    explicit Conv3dLeakyReluSumClampGeluCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("sum_tensor")
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

OP_ADD(Conv3dLeakyReluSumClampGeluCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
// 2 * sqrt(2 / pi): gelu(x) ~= x * sigmoid(2 * sqrt(2/pi) * (x + 0.044715 x^3))
constexpr float GELU_K2 = 1.5957691216057308f;
constexpr float GELU_C = 0.044715f;

class KernelConv3dEpilogue {
public:
    __aicore__ inline KernelConv3dEpilogue() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR sumTensor, GM_ADDR y,
                                const Conv3dLeakyReluSumClampGeluCustomTilingData& td)
    {
        planeLen = td.planeLen;
        channels = td.channels;
        tileLen = td.tileLen;
        slope = td.negativeSlope;
        lo = td.clampMin;
        hi = td.clampMax;

        uint32_t blockIdx = GetBlockIdx();
        planeCount = td.planesPerCore + (blockIdx < td.extraPlanes ? 1 : 0);
        planeStart = blockIdx * td.planesPerCore + (blockIdx < td.extraPlanes ? blockIdx : td.extraPlanes);

        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);
        sumGm.SetGlobalBuffer((__gm__ float*)sumTensor, channels);

        pipe.InitBuffer(inQueue, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(tmpBuf, tileLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t tiles = (planeLen + tileLen - 1) / tileLen;
        for (uint32_t p = 0; p < planeCount; ++p) {
            uint32_t plane = planeStart + p;
            // sum_tensor has shape (C,1,1,1): a single value per plane
            float addVal = sumGm.GetValue(plane % channels);
            uint64_t base = static_cast<uint64_t>(plane) * planeLen;
            for (uint32_t t = 0; t < tiles; ++t) {
                uint32_t cur = (t == tiles - 1) ? (planeLen - t * tileLen) : tileLen;
                uint64_t off = base + static_cast<uint64_t>(t) * tileLen;
                CopyIn(off, cur);
                Compute(cur, addVal);
                CopyOut(off, cur);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t cur)
    {
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(cur * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(xLocal, xGm[off], cp, pad);
        inQueue.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t cur, float addVal)
    {
        LocalTensor<float> xLocal = inQueue.DeQue<float>();
        LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        LocalTensor<float> t = tmpBuf.Get<float>();

        // leaky_relu -> + sum_tensor[c] -> clamp(-1, 1)
        LeakyRelu(xLocal, xLocal, slope, cur);
        Adds(xLocal, xLocal, addVal, cur);
        Maxs(xLocal, xLocal, lo, cur);
        Mins(xLocal, xLocal, hi, cur);

        // gelu (tanh form written as a sigmoid): x / (1 + exp(-k2 * (x + c*x^3)))
        Mul(t, xLocal, xLocal, cur);
        Muls(t, t, GELU_C, cur);
        Adds(t, t, 1.0f, cur);
        Mul(t, t, xLocal, cur);
        Muls(t, t, -GELU_K2, cur);
        Exp(t, t, cur);
        Adds(t, t, 1.0f, cur);
        Div(yLocal, xLocal, t, cur);

        outQueue.EnQue(yLocal);
        inQueue.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t cur)
    {
        LocalTensor<float> yLocal = outQueue.DeQue<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(cur * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[off], yLocal, cp);
        outQueue.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<QuePosition::VECCALC> tmpBuf;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    GlobalTensor<float> sumGm;

    uint32_t planeLen = 0;
    uint32_t channels = 1;
    uint32_t tileLen = 0;
    uint32_t planeStart = 0;
    uint32_t planeCount = 0;
    float slope = 0.2f;
    float lo = -1.0f;
    float hi = 1.0f;
};

extern "C" __global__ __aicore__ void conv3d_leaky_relu_sum_clamp_gelu_custom(
    GM_ADDR x, GM_ADDR sum_tensor, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelConv3dEpilogue op;
    op.Init(x, sum_tensor, y, tilingData);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// The 3D convolution itself goes through the stock NPU conv; the custom kernel
// fuses everything after it (leaky_relu, broadcast add, clamp, gelu) in one pass.
at::Tensor conv3d_leaky_relu_sum_clamp_gelu_impl_npu(const at::Tensor& x,
                                                     const at::Tensor& weight,
                                                     const at::Tensor& bias,
                                                     const at::Tensor& sum_tensor)
{
    at::Tensor conv = at::conv3d(x, weight, bias).contiguous();
    at::Tensor addv = sum_tensor.reshape({-1}).contiguous();
    at::Tensor result = at::empty_like(conv);
    EXEC_NPU_CMD(aclnnConv3dLeakyReluSumClampGeluCustom, conv, addv, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv3d_leaky_relu_sum_clamp_gelu_custom", &conv3d_leaky_relu_sum_clamp_gelu_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv3d_leaky_relu_sum_clamp_gelu_custom", &conv3d_leaky_relu_sum_clamp_gelu_impl_npu,
          "conv3d + leaky_relu + add + clamp + gelu");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, sum_tensor_shape):
        super(ModelNew, self).__init__()
        self.conv = torch.nn.Conv3d(in_channels, out_channels, kernel_size)
        self.sum_tensor = torch.nn.Parameter(torch.randn(sum_tensor_shape))

    def forward(self, x):
        return custom_ops_lib.conv3d_leaky_relu_sum_clamp_gelu_custom(
            x, self.conv.weight, self.conv.bias, self.sum_tensor)
'''
