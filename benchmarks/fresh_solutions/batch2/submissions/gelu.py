project_json_src='''
[
    {
        "op": "GeluCustom",
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
BEGIN_TILING_DATA_DEF(GeluCustomTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalLength);
  TILING_DATA_FIELD_DEF(uint64_t, perCoreLength);   // multiple of 8 elements, last core takes the remainder
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GeluCustom, GeluCustomTilingData)
}
"""

host_operator_src="""
#include "gelu_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_LENGTH = 4096;   // floats per tile (16 KB)
constexpr uint64_t ALIGN_ELEMS = 8;      // 32 bytes of fp32

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    GeluCustomTilingData tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t coreNum = platform.GetCoreNumAiv();
    if (coreNum == 0) {
        coreNum = 1;
    }

    uint64_t total = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    uint64_t perCore = (total + coreNum - 1) / coreNum;
    perCore = (perCore + ALIGN_ELEMS - 1) / ALIGN_ELEMS * ALIGN_ELEMS;
    if (perCore == 0) {
        perCore = ALIGN_ELEMS;
    }
    uint64_t usedCores = (total + perCore - 1) / perCore;
    if (usedCores == 0) {
        usedCores = 1;
    }

    tiling.set_totalLength(total);
    tiling.set_perCoreLength(perCore);
    tiling.set_tileLength(TILE_LENGTH);

    context->SetBlockDim(static_cast<uint32_t>(usedCores));
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
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}


namespace ops {
class GeluCustom : public OpDef {
public:
    explicit GeluCustom(const char* name) : OpDef(name)
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

OP_ADD(GeluCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Exact (erf based) GELU:  gelu(x) = x * Phi(x),  Phi(x) = 0.5 * (1 + erf(x / sqrt(2)))
// erf is evaluated with the Abramowitz-Stegun 7.1.26 rational approximation (|err| < 1.5e-7):
//   1 - erf(z) = q(z) = t * (a1 + t*(a2 + t*(a3 + t*(a4 + t*a5)))) * exp(-z*z),  t = 1 / (1 + p*z),  z >= 0
// Using q on |x| avoids any branch on the sign:
//   gelu(x) = relu(x) - 0.5 * |x| * q(|x| / sqrt(2))
constexpr float INV_SQRT2 = 0.70710678118654752f;
constexpr float ERF_P = 0.3275911f;
constexpr float ERF_A1 = 0.254829592f;
constexpr float ERF_A2 = -0.284496736f;
constexpr float ERF_A3 = 1.421413741f;
constexpr float ERF_A4 = -1.453152027f;
constexpr float ERF_A5 = 1.061405429f;

class KernelGelu {
public:
    __aicore__ inline KernelGelu() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint64_t totalLength, uint64_t perCoreLength, uint32_t tileLength)
    {
        uint64_t start = perCoreLength * GetBlockIdx();
        uint64_t remain = totalLength > start ? totalLength - start : 0;
        coreLength = remain < perCoreLength ? remain : perCoreLength;
        this->tileLength = tileLength;

        xGm.SetGlobalBuffer((__gm__ float *)x + start, coreLength);
        yGm.SetGlobalBuffer((__gm__ float *)y + start, coreLength);

        pipe.InitBuffer(inQueue, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(absBuf, tileLength * sizeof(float));
        pipe.InitBuffer(tBuf, tileLength * sizeof(float));
        pipe.InitBuffer(expBuf, tileLength * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (coreLength == 0) {
            return;
        }
        uint64_t loops = (coreLength + tileLength - 1) / tileLength;
        for (uint64_t i = 0; i < loops; ++i) {
            uint64_t offset = i * tileLength;
            uint32_t len = (i == loops - 1) ? static_cast<uint32_t>(coreLength - offset) : tileLength;
            CopyIn(offset, len);
            Compute(len);
            CopyOut(offset, len);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t offset, uint32_t len)
    {
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> padParams{false, 0, 0, 0.0f};
        DataCopyPad(xLocal, xGm[offset], copyParams, padParams);
        inQueue.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        LocalTensor<float> xLocal = inQueue.DeQue<float>();
        LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        LocalTensor<float> ax = absBuf.Get<float>();
        LocalTensor<float> t = tBuf.Get<float>();
        LocalTensor<float> e = expBuf.Get<float>();

        // z = |x| / sqrt(2)
        Abs(ax, xLocal, len);
        PipeBarrier<PIPE_V>();
        Muls(e, ax, INV_SQRT2, len);                 // e = z
        PipeBarrier<PIPE_V>();

        // t = 1 / (1 + p*z)
        Muls(t, e, ERF_P, len);
        PipeBarrier<PIPE_V>();
        Adds(t, t, 1.0f, len);
        PipeBarrier<PIPE_V>();
        Reciprocal(t, t, len);

        // e = exp(-z*z)
        Mul(e, e, e, len);
        PipeBarrier<PIPE_V>();
        Muls(e, e, -1.0f, len);
        PipeBarrier<PIPE_V>();
        Exp(e, e, len);

        // Horner: poly = t*(a1 + t*(a2 + t*(a3 + t*(a4 + t*a5)))), accumulated in yLocal
        Muls(yLocal, t, ERF_A5, len);
        PipeBarrier<PIPE_V>();
        Adds(yLocal, yLocal, ERF_A4, len);
        PipeBarrier<PIPE_V>();
        Mul(yLocal, yLocal, t, len);
        PipeBarrier<PIPE_V>();
        Adds(yLocal, yLocal, ERF_A3, len);
        PipeBarrier<PIPE_V>();
        Mul(yLocal, yLocal, t, len);
        PipeBarrier<PIPE_V>();
        Adds(yLocal, yLocal, ERF_A2, len);
        PipeBarrier<PIPE_V>();
        Mul(yLocal, yLocal, t, len);
        PipeBarrier<PIPE_V>();
        Adds(yLocal, yLocal, ERF_A1, len);
        PipeBarrier<PIPE_V>();
        Mul(yLocal, yLocal, t, len);
        PipeBarrier<PIPE_V>();

        // q = poly * exp(-z^2);  corr = 0.5 * |x| * q
        Mul(yLocal, yLocal, e, len);
        PipeBarrier<PIPE_V>();
        Mul(yLocal, yLocal, ax, len);
        PipeBarrier<PIPE_V>();
        Muls(yLocal, yLocal, 0.5f, len);

        // y = relu(x) - corr
        Relu(t, xLocal, len);
        PipeBarrier<PIPE_V>();
        Sub(yLocal, t, yLocal, len);

        outQueue.EnQue<float>(yLocal);
        inQueue.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint64_t offset, uint32_t len)
    {
        LocalTensor<float> yLocal = outQueue.DeQue<float>();
        DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[offset], yLocal, copyParams);
        outQueue.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<QuePosition::VECCALC> absBuf, tBuf, expBuf;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    uint64_t coreLength = 0;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void gelu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelGelu op;
    op.Init(x, y, tilingData.totalLength, tilingData.perCoreLength, tilingData.tileLength);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor gelu_custom_impl_npu(const at::Tensor& x) {
    at::Tensor input = x.contiguous();
    at::Tensor result = at::empty_like(input);
    EXEC_NPU_CMD(aclnnGeluCustom, input, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("gelu_custom", &gelu_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("gelu_custom", &gelu_custom_impl_npu, "exact GELU activation");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return custom_ops_lib.gelu_custom(x)
'''
