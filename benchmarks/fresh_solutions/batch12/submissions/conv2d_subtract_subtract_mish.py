project_json_src='''
[
    {
        "op": "Conv2dSubtractSubtractMishCustom",
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
            {
                "name": "subtract_value_1",
                "param_type": "required",
                "type": "float"
            },
            {
                "name": "subtract_value_2",
                "param_type": "required",
                "type": "float"
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Conv2dSubtractSubtractMishCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, totalLength);   // number of elements of the conv output
  TILING_DATA_FIELD_DEF(uint32_t, perCoreLength); // elements handled by every core except the last
  TILING_DATA_FIELD_DEF(uint32_t, lastCoreLength);// elements handled by the last core
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);    // elements per UB tile
  TILING_DATA_FIELD_DEF(float, shift);            // subtract_value_1 + subtract_value_2
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Conv2dSubtractSubtractMishCustom, Conv2dSubtractSubtractMishCustomTilingData)
}
"""

host_operator_src="""
#include "conv2d_subtract_subtract_mish_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// 32-byte alignment for float
constexpr uint32_t ALIGN_ELEMS = 8;
// x tile + y tile (double buffered) + 2 temp buffers must fit into ~192KB UB
constexpr uint32_t TILE_LENGTH = 4096;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    Conv2dSubtractSubtractMishCustomTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    if (coreNum == 0) {
        coreNum = 1;
    }

    uint32_t totalLength = static_cast<uint32_t>(context->GetInputShape(0)->GetOriginShape().GetShapeSize());
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    const float* sub1 = attrs->GetAttrPointer<float>(0);
    const float* sub2 = attrs->GetAttrPointer<float>(1);

    // split the flat tensor into aligned chunks, the last core takes the remainder
    uint32_t alignedBlocks = (totalLength + ALIGN_ELEMS - 1) / ALIGN_ELEMS;
    uint32_t usedCores = alignedBlocks < coreNum ? alignedBlocks : coreNum;
    if (usedCores == 0) {
        usedCores = 1;
    }
    uint32_t perCore = (alignedBlocks / usedCores) * ALIGN_ELEMS;
    if (perCore == 0) {
        perCore = ALIGN_ELEMS;
    }
    uint32_t lastCore = totalLength - perCore * (usedCores - 1);

    tiling.set_totalLength(totalLength);
    tiling.set_perCoreLength(perCore);
    tiling.set_lastCoreLength(lastCore);
    tiling.set_tileLength(TILE_LENGTH);
    tiling.set_shift(*sub1 + *sub2);

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
class Conv2dSubtractSubtractMishCustom : public OpDef {
public:
    explicit Conv2dSubtractSubtractMishCustom(const char* name) : OpDef(name)
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
        this->Attr("subtract_value_1").Float();
        this->Attr("subtract_value_2").Float();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(Conv2dSubtractSubtractMishCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
// above this value mish(x) == x in fp32; also keeps exp() from overflowing
constexpr float MISH_CLAMP = 20.0f;

// Epilogue of the convolution: y = mish(x - s1 - s2)
// mish(v) = v * tanh(softplus(v)); with e = exp(v):
//   tanh(log(1 + e)) = (e^2 + 2e) / (e^2 + 2e + 2)
class KernelSubSubMish {
public:
    __aicore__ inline KernelSubSubMish() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t perCoreLength, uint32_t lastCoreLength,
                                uint32_t tileLength, float shift)
    {
        uint32_t blockIdx = GetBlockIdx();
        uint64_t offset = static_cast<uint64_t>(perCoreLength) * blockIdx;
        this->coreLength = (blockIdx == GetBlockNum() - 1) ? lastCoreLength : perCoreLength;
        this->tileLength = tileLength;
        this->negShift = -shift;

        xGm.SetGlobalBuffer((__gm__ float*)x + offset, this->coreLength);
        yGm.SetGlobalBuffer((__gm__ float*)y + offset, this->coreLength);

        pipe.InitBuffer(inQueue, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(expBuf, tileLength * sizeof(float));
        pipe.InitBuffer(denBuf, tileLength * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t fullTiles = coreLength / tileLength;
        uint32_t tail = coreLength % tileLength;
        for (uint32_t i = 0; i < fullTiles; ++i) {
            CopyIn(i * tileLength, tileLength);
            Compute(tileLength);
            CopyOut(i * tileLength, tileLength);
        }
        if (tail > 0) {
            CopyIn(fullTiles * tileLength, tail);
            Compute(tail);
            CopyOut(fullTiles * tileLength, tail);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t offset, uint32_t len)
    {
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> padParams{false, 0, 0, 0.0f};
        DataCopyPad(xLocal, xGm[offset], params, padParams);
        inQueue.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        LocalTensor<float> xLocal = inQueue.DeQue<float>();
        LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        LocalTensor<float> e = expBuf.Get<float>();
        LocalTensor<float> den = denBuf.Get<float>();

        // v = x - (s1 + s2)
        Adds(xLocal, xLocal, negShift, len);
        // e = exp(min(v, 20))
        Mins(e, xLocal, MISH_CLAMP, len);
        Exp(e, e, len);
        // num = e * (e + 2)
        Adds(den, e, 2.0f, len);
        Mul(e, e, den, len);
        // t = num / (num + 2)
        Adds(den, e, 2.0f, len);
        Div(e, e, den, len);
        // y = v * t
        Mul(yLocal, xLocal, e, len);

        outQueue.EnQue<float>(yLocal);
        inQueue.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t offset, uint32_t len)
    {
        LocalTensor<float> yLocal = outQueue.DeQue<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[offset], yLocal, params);
        outQueue.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<QuePosition::VECCALC> expBuf, denBuf;
    GlobalTensor<float> xGm, yGm;
    uint32_t coreLength;
    uint32_t tileLength;
    float negShift;
};

extern "C" __global__ __aicore__ void conv2d_subtract_subtract_mish_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelSubSubMish op;
    op.Init(x, y, tilingData.perCoreLength, tilingData.lastCoreLength, tilingData.tileLength, tilingData.shift);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// conv2d runs on the NPU through aten (cube unit); the subtract/subtract/mish
// epilogue is fused into one custom vector kernel.
at::Tensor conv2d_subtract_subtract_mish_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                         const at::Tensor& bias, double sub1, double sub2)
{
    at::Tensor convOut = at::conv2d(x, weight, bias).contiguous();
    at::Tensor result = at::empty_like(convOut);
    EXEC_NPU_CMD(aclnnConv2dSubtractSubtractMishCustom, convOut, sub1, sub2, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv2d_subtract_subtract_mish_custom", &conv2d_subtract_subtract_mish_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv2d_subtract_subtract_mish_custom", &conv2d_subtract_subtract_mish_custom_impl_npu,
          "conv2d -> subtract -> subtract -> mish");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, subtract_value_1, subtract_value_2):
        super(ModelNew, self).__init__()
        self.conv = torch.nn.Conv2d(in_channels, out_channels, kernel_size)
        self.subtract_value_1 = subtract_value_1
        self.subtract_value_2 = subtract_value_2

    def forward(self, x):
        return custom_ops_lib.conv2d_subtract_subtract_mish_custom(
            x, self.conv.weight, self.conv.bias, self.subtract_value_1, self.subtract_value_2)
'''
