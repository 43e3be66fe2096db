project_json_src='''
[
    {
        "op": "SwishCustom",
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
BEGIN_TILING_DATA_DEF(SwishCustomTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalLength);
  TILING_DATA_FIELD_DEF(uint64_t, bigCoreLength);   // elements for the first bigCoreNum cores
  TILING_DATA_FIELD_DEF(uint64_t, smallCoreLength); // elements for the remaining cores
  TILING_DATA_FIELD_DEF(uint32_t, bigCoreNum);
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SwishCustom, SwishCustomTilingData)
}
"""

host_operator_src="""
#include "swish_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t ALIGN_ELEMS = 8;      // 32 bytes of float
constexpr uint32_t TILE_LENGTH = 8192;   // 32 KB per tile

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    SwishCustomTilingData tiling;
    uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    if (coreNum == 0) {
        coreNum = 1;
    }
    // split in units of 32B blocks so that every core starts on an aligned address
    uint64_t blocks = (total + ALIGN_ELEMS - 1) / ALIGN_ELEMS;
    if (blocks < coreNum) {
        coreNum = static_cast<uint32_t>(blocks == 0 ? 1 : blocks);
    }
    uint64_t smallBlocks = blocks / coreNum;
    uint32_t bigCoreNum = static_cast<uint32_t>(blocks % coreNum);
    uint64_t smallLen = smallBlocks * ALIGN_ELEMS;
    uint64_t bigLen = smallLen + ALIGN_ELEMS;

    context->SetBlockDim(coreNum);
    tiling.set_totalLength(total);
    tiling.set_bigCoreLength(bigLen);
    tiling.set_smallCoreLength(smallLen);
    tiling.set_bigCoreNum(bigCoreNum);
    tiling.set_tileLength(TILE_LENGTH);
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
class SwishCustom : public OpDef {
public:
    explicit SwishCustom(const char* name) : OpDef(name)
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

OP_ADD(SwishCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// y = x * sigmoid(x) = x / (1 + exp(-x))
class KernelSwish {
public:
    __aicore__ inline KernelSwish() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const SwishCustomTilingData& tiling)
    {
        uint32_t idx = AscendC::GetBlockIdx();
        uint64_t start;
        if (idx < tiling.bigCoreNum) {
            coreLength = tiling.bigCoreLength;
            start = idx * tiling.bigCoreLength;
        } else {
            coreLength = tiling.smallCoreLength;
            start = tiling.bigCoreNum * tiling.bigCoreLength + (idx - tiling.bigCoreNum) * tiling.smallCoreLength;
        }
        // the last core may own a few padding elements past the end
        if (start + coreLength > tiling.totalLength) {
            coreLength = start < tiling.totalLength ? tiling.totalLength - start : 0;
        }
        tileLength = tiling.tileLength;

        xGm.SetGlobalBuffer((__gm__ float*)x + start, coreLength);
        yGm.SetGlobalBuffer((__gm__ float*)y + start, coreLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(tmpBuf, tileLength * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint64_t fullTiles = coreLength / tileLength;
        uint32_t rest = static_cast<uint32_t>(coreLength - fullTiles * tileLength);
        for (uint64_t i = 0; i < fullTiles; ++i) {
            CopyIn(i * tileLength, tileLength);
            Compute(tileLength);
            CopyOut(i * tileLength, tileLength);
        }
        if (rest > 0) {
            CopyIn(fullTiles * tileLength, rest);
            Compute((rest + 7) / 8 * 8);
            CopyOut(fullTiles * tileLength, rest);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t offset, uint32_t count)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        if (count % 8 == 0) {
            AscendC::DataCopy(xLocal, xGm[offset], count);
        } else {
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(count * sizeof(float)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<float> padParams{false, 0, 0, 0.0f};
            AscendC::DataCopyPad(xLocal, xGm[offset], copyParams, padParams);
        }
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t count)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        AscendC::LocalTensor<float> t = tmpBuf.Get<float>();

        AscendC::Muls(t, xLocal, -1.0f, count);
        AscendC::Exp(t, t, count);
        AscendC::Adds(t, t, 1.0f, count);
        AscendC::Div(yLocal, xLocal, t, count);

        outQueueY.EnQue<float>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint64_t offset, uint32_t count)
    {
        AscendC::LocalTensor<float> yLocal = outQueueY.DeQue<float>();
        if (count % 8 == 0) {
            AscendC::DataCopy(yGm[offset], yLocal, count);
        } else {
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(count * sizeof(float)), 0, 0, 0};
            AscendC::DataCopyPad(yGm[offset], yLocal, copyParams);
        }
        outQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tmpBuf;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
    uint64_t coreLength;
    uint32_t tileLength;
};

extern "C" __global__ __aicore__ void swish_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelSwish op;
    op.Init(x, y, tiling_data);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor swish_custom_impl_npu(const at::Tensor& self)
{
    at::Tensor input = self.contiguous();
    at::Tensor result = at::empty_like(input);
    EXEC_NPU_CMD(aclnnSwishCustom, input, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("swish_custom", &swish_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("swish_custom", &swish_custom_impl_npu, "x * sigmoid(x)");
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
        return custom_ops_lib.swish_custom(x)
'''
