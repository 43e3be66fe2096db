project_json_src='''
[
    {
        "op": "SeluCustom",
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
BEGIN_TILING_DATA_DEF(SeluCustomTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalLength);
  TILING_DATA_FIELD_DEF(uint64_t, bigCoreLength);     // elements for the first `bigCoreNum` cores
  TILING_DATA_FIELD_DEF(uint64_t, smallCoreLength);   // elements for the remaining cores
  TILING_DATA_FIELD_DEF(uint32_t, bigCoreNum);
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SeluCustom, SeluCustomTilingData)
}
"""

host_operator_src="""
#include "selu_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
const uint32_t TILE_LENGTH = 8192;       // fp32 elements per UB tile
const uint32_t ALIGN_ELEMS = 8;          // 32 bytes of fp32

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    SeluCustomTilingData tiling;
    uint64_t total = context->GetInputShape(0)->GetOriginShape().GetShapeSize();

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    if (coreNum == 0) {
        coreNum = 1;
    }

    // split in 32-byte blocks so every core starts on an aligned address
    uint64_t blocks = (total + ALIGN_ELEMS - 1) / ALIGN_ELEMS;
    if (blocks < coreNum) {
        coreNum = static_cast<uint32_t>(blocks == 0 ? 1 : blocks);
    }
    uint64_t blocksPerCore = blocks / coreNum;
    uint32_t bigCoreNum = static_cast<uint32_t>(blocks % coreNum);
    uint64_t smallLen = blocksPerCore * ALIGN_ELEMS;
    uint64_t bigLen = smallLen + ALIGN_ELEMS;

    tiling.set_totalLength(total);
    tiling.set_bigCoreLength(bigLen);
    tiling.set_smallCoreLength(smallLen);
    tiling.set_bigCoreNum(bigCoreNum);
    tiling.set_tileLength(TILE_LENGTH);

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
    const auto dt = context->GetInputDataType(0);
    context->SetOutputDataType(0, dt);
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class SeluCustom : public OpDef {
public:
    explicit SeluCustom(const char* name) : OpDef(name)
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

OP_ADD(SeluCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
// constants from torch.nn.functional.selu
constexpr float SELU_ALPHA = 1.6732632423543772f;
constexpr float SELU_SCALE = 1.0507009873554805f;

// selu(x) = scale * (max(0, x) + alpha * (exp(min(0, x)) - 1))
class KernelSelu {
public:
    __aicore__ inline KernelSelu() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const SeluCustomTilingData& tiling)
    {
        uint32_t blockIdx = AscendC::GetBlockIdx();
        uint64_t offset;
        if (blockIdx < tiling.bigCoreNum) {
            coreLength = tiling.bigCoreLength;
            offset = tiling.bigCoreLength * blockIdx;
        } else {
            coreLength = tiling.smallCoreLength;
            offset = tiling.bigCoreLength * tiling.bigCoreNum +
                     tiling.smallCoreLength * (blockIdx - tiling.bigCoreNum);
        }
        // the last core may own a few padding elements past the real end
        if (offset >= tiling.totalLength) {
            coreLength = 0;
        } else if (offset + coreLength > tiling.totalLength) {
            coreLength = tiling.totalLength - offset;
        }
        tileLength = tiling.tileLength;

        xGm.SetGlobalBuffer((__gm__ float*)x + offset, coreLength);
        yGm.SetGlobalBuffer((__gm__ float*)y + offset, coreLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(negBuf, tileLength * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint64_t tileCount = (coreLength + tileLength - 1) / tileLength;
        for (uint64_t i = 0; i < tileCount; i++) {
            uint64_t start = i * tileLength;
            uint32_t len = static_cast<uint32_t>((coreLength - start) < tileLength ? (coreLength - start) : tileLength);
            CopyIn(start, len);
            Compute(len);
            CopyOut(start, len);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t start, uint32_t len)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        if (len == tileLength) {
            AscendC::DataCopy(xLocal, xGm[start], len);
        } else {
            AscendC::DataCopyExtParams params{1, len * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<float> padParams{false, 0, 0, 0.0f};
            AscendC::DataCopyPad(xLocal, xGm[start], params, padParams);
        }
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        AscendC::LocalTensor<float> neg = negBuf.Get<float>();

        // negative branch: alpha * (exp(min(x, 0)) - 1)
        AscendC::Mins(neg, xLocal, 0.0f, len);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Exp(neg, neg, len);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Adds(neg, neg, -1.0f, len);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Muls(neg, neg, SELU_ALPHA, len);

        // positive branch: max(x, 0)
        AscendC::Maxs(yLocal, xLocal, 0.0f, len);
        AscendC::PipeBarrier<PIPE_V>();

        AscendC::Add(yLocal, yLocal, neg, len);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Muls(yLocal, yLocal, SELU_SCALE, len);

        outQueueY.EnQue<float>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint64_t start, uint32_t len)
    {
        AscendC::LocalTensor<float> yLocal = outQueueY.DeQue<float>();
        if (len == tileLength) {
            AscendC::DataCopy(yGm[start], yLocal, len);
        } else {
            AscendC::DataCopyExtParams params{1, len * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
            AscendC::DataCopyPad(yGm[start], yLocal, params);
        }
        outQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::TPosition::VECCALC> negBuf;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
    uint64_t coreLength;
    uint32_t tileLength;
};

extern "C" __global__ __aicore__ void selu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelSelu op;
    op.Init(x, y, tiling_data);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor selu_custom_impl_npu(const at::Tensor& self)
{
    at::Tensor x = self.contiguous();
    at::Tensor result = at::empty_like(x);
    EXEC_NPU_CMD(aclnnSeluCustom, x, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("selu_custom", &selu_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("selu_custom", &selu_custom_impl_npu, "SELU activation");
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
        return custom_ops_lib.selu_custom(x)
'''
