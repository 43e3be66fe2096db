project_json_src='''
[
    {
        "op": "LeakyReluCustom",
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
        ],
        "attr": [
            {
                "name": "negative_slope",
                "param_type": "optional",
                "type": "float",
                "default_value": "0.01"
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LeakyReluCustomTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalLength);
  TILING_DATA_FIELD_DEF(uint64_t, bigCoreLen);     // elements on each of the first bigCoreCnt cores
  TILING_DATA_FIELD_DEF(uint64_t, smallCoreLen);   // elements on the remaining cores
  TILING_DATA_FIELD_DEF(uint32_t, bigCoreCnt);
  TILING_DATA_FIELD_DEF(uint32_t, ubTile);         // elements per UB tile
  TILING_DATA_FIELD_DEF(float, negativeSlope);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LeakyReluCustom, LeakyReluCustomTilingData)
}
"""

host_operator_src="""
#include "leaky_relu_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
const uint32_t UB_TILE = 8192;       // 32 KB of fp32 per buffer
const uint64_t BLOCK_ELEMS = 8;      // one 32B block of fp32

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    LeakyReluCustomTilingData tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = platform.GetCoreNumAiv();
    if (cores == 0) {
        cores = 1;
    }

    float slope = 0.01f;
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    if (attrs != nullptr) {
        const float *slopePtr = attrs->GetAttrPointer<float>(0);
        if (slopePtr != nullptr) {
            slope = *slopePtr;
        }
    }

    uint64_t total = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    // distribute whole 32B blocks; the block remainder goes onto the last core's tail
    uint64_t blocks = (total + BLOCK_ELEMS - 1) / BLOCK_ELEMS;
    if (blocks < cores) {
        cores = static_cast<uint32_t>(blocks == 0 ? 1 : blocks);
    }
    uint64_t smallBlocks = blocks / cores;
    uint32_t bigCnt = static_cast<uint32_t>(blocks % cores);

    tiling.set_bigCoreLen((smallBlocks + 1) * BLOCK_ELEMS);
    tiling.set_smallCoreLen(smallBlocks * BLOCK_ELEMS);
    tiling.set_bigCoreCnt(bigCnt);
    tiling.set_ubTile(UB_TILE);
    tiling.set_negativeSlope(slope);

    tiling.set_totalLength(total);

    context->SetBlockDim(cores);
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
    const gert::Shape* xShape = context->GetInputShape(0);
    gert::Shape* yShape = context->GetOutputShape(0);
    *yShape = *xShape;
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}


namespace ops {
class LeakyReluCustom : public OpDef {
public:
    explicit LeakyReluCustom(const char* name) : OpDef(name)
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
        this->Attr("negative_slope").AttrType(OPTIONAL).Float(0.01);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);

        this->AICore()
            .SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(LeakyReluCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class LeakyReluKernel {
public:
    __aicore__ inline LeakyReluKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const LeakyReluCustomTilingData &tiling)
    {
        slope = static_cast<T>(tiling.negativeSlope);
        ubTile = tiling.ubTile;

        uint32_t coreId = GetBlockIdx();
        uint64_t offset;
        if (coreId < tiling.bigCoreCnt) {
            myLen = tiling.bigCoreLen;
            offset = myLen * coreId;
        } else {
            myLen = tiling.smallCoreLen;
            offset = tiling.bigCoreLen * tiling.bigCoreCnt + tiling.smallCoreLen * (coreId - tiling.bigCoreCnt);
        }
        // blocks were rounded up to 32B, so the last core may have to drop a few elements
        if (offset >= tiling.totalLength) {
            myLen = 0;
        } else if (offset + myLen > tiling.totalLength) {
            myLen = tiling.totalLength - offset;
        }
        xGm.SetGlobalBuffer((__gm__ T *)x + offset, myLen);
        yGm.SetGlobalBuffer((__gm__ T *)y + offset, myLen);

        pipe.InitBuffer(inQueueX, BUFFER_NUM, ubTile * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, ubTile * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        uint64_t fullTiles = myLen / ubTile;
        uint32_t rest = static_cast<uint32_t>(myLen % ubTile);
        for (uint64_t i = 0; i < fullTiles; ++i) {
            Step(i * ubTile, ubTile);
        }
        if (rest > 0) {
            Step(fullTiles * ubTile, rest);
        }
    }

private:
    __aicore__ inline void Step(uint64_t pos, uint32_t count)
    {
        // CopyIn
        LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        DataCopyExtParams inParams{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> padParams{false, 0, 0, static_cast<T>(0)};
        DataCopyPad(xLocal, xGm[pos], inParams, padParams);
        inQueueX.EnQue(xLocal);

        // Compute: y = x >= 0 ? x : slope * x
        xLocal = inQueueX.DeQue<T>();
        LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
        LeakyRelu(yLocal, xLocal, slope, count);
        outQueueY.EnQue<T>(yLocal);
        inQueueX.FreeTensor(xLocal);

        // CopyOut
        yLocal = outQueueY.DeQue<T>();
        DataCopyExtParams outParams{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[pos], yLocal, outParams);
        outQueueY.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    GlobalTensor<T> xGm;
    GlobalTensor<T> yGm;
    uint64_t myLen = 0;
    uint32_t ubTile = 0;
    T slope;
};

extern "C" __global__ __aicore__ void leaky_relu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    LeakyReluKernel<float> op;
    op.Init(x, y, tilingData);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor leaky_relu_custom_impl_npu(const at::Tensor& x, double negative_slope) {
    at::Tensor input = x.contiguous();
    at::Tensor result = at::empty_like(input);
    EXEC_NPU_CMD(aclnnLeakyReluCustom, input, negative_slope, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("leaky_relu_custom", &leaky_relu_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("leaky_relu_custom", &leaky_relu_custom_impl_npu, "LeakyReLU",
          pybind11::arg("x"), pybind11::arg("negative_slope") = 0.01);
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, negative_slope: float = 0.01) -> None:
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return custom_ops_lib.leaky_relu_custom(x, self.negative_slope)
'''
