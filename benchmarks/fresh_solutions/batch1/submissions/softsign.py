project_json_src='''
[
    {
        "op": "SoftsignCustom",
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
BEGIN_TILING_DATA_DEF(SoftsignCustomTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalLength);   // number of elements in x
  TILING_DATA_FIELD_DEF(uint64_t, perCoreLength); // elements handled by each core (except the last)
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);    // elements per UB tile
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SoftsignCustom, SoftsignCustomTilingData)
}
"""

host_operator_src="""
#include "softsign_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// 3 buffers (x, y, tmp) x 2 for double buffering, each 8K floats => 192KB is too much,
// so keep the tile at 6K floats (24KB) -> 5 * 24KB = 120KB of UB.
constexpr uint32_t TILE_LENGTH = 6144;
constexpr uint32_t ALIGN_ELEMS = 8; // 32 bytes of float

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    SoftsignCustomTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    if (coreNum == 0) {
        coreNum = 1;
    }
    uint64_t totalLength = context->GetInputShape(0)->GetOriginShape().GetShapeSize();

    // Split the flat tensor in 32B-aligned chunks across the vector cores.
    uint64_t perCore = (totalLength + coreNum - 1) / coreNum;
    perCore = (perCore + ALIGN_ELEMS - 1) / ALIGN_ELEMS * ALIGN_ELEMS;
    uint32_t usedCores = static_cast<uint32_t>((totalLength + perCore - 1) / perCore);
    if (usedCores == 0) {
        usedCores = 1;
    }

    context->SetBlockDim(usedCores);
    tiling.set_totalLength(totalLength);
    tiling.set_perCoreLength(perCore);
    tiling.set_tileLength(TILE_LENGTH);
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
class SoftsignCustom : public OpDef {
public:
    explicit SoftsignCustom(const char* name) : OpDef(name)
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

OP_ADD(SoftsignCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// y = x / (1 + |x|)
class KernelSoftsign {
public:
    __aicore__ inline KernelSoftsign() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint64_t totalLength, uint64_t perCoreLength,
                                uint32_t tileLength)
    {
        uint64_t start = perCoreLength * AscendC::GetBlockIdx();
        uint64_t remain = (totalLength > start) ? (totalLength - start) : 0;
        this->coreLength = remain < perCoreLength ? remain : perCoreLength;
        this->tileLength = tileLength;

        xGm.SetGlobalBuffer((__gm__ float *)x + start, this->coreLength);
        yGm.SetGlobalBuffer((__gm__ float *)y + start, this->coreLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(denomBuf, tileLength * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint64_t fullTiles = this->coreLength / this->tileLength;
        uint32_t tail = static_cast<uint32_t>(this->coreLength - fullTiles * this->tileLength);
        for (uint64_t i = 0; i < fullTiles; ++i) {
            CopyIn(i * this->tileLength, this->tileLength);
            Compute(this->tileLength);
            CopyOut(i * this->tileLength, this->tileLength);
        }
        if (tail > 0) {
            CopyIn(fullTiles * this->tileLength, tail);
            Compute(tail);
            CopyOut(fullTiles * this->tileLength, tail);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t offset, uint32_t count)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        // DataCopyPad handles a tail that is not a multiple of 32 bytes
        AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(count * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> padParams{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(xLocal, xGm[offset], params, padParams);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t count)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        AscendC::LocalTensor<float> denom = denomBuf.Get<float>();

        AscendC::Abs(denom, xLocal, count);
        AscendC::Adds(denom, denom, 1.0f, count);
        AscendC::Div(yLocal, xLocal, denom, count);

        outQueueY.EnQue<float>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint64_t offset, uint32_t count)
    {
        AscendC::LocalTensor<float> yLocal = outQueueY.DeQue<float>();
        AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(count * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[offset], yLocal, params);
        outQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::TPosition::VECCALC> denomBuf;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
    uint64_t coreLength;
    uint32_t tileLength;
};

extern "C" __global__ __aicore__ void softsign_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelSoftsign op;
    op.Init(x, y, tiling_data.totalLength, tiling_data.perCoreLength, tiling_data.tileLength);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor softsign_custom_impl_npu(const at::Tensor& x) {
    at::Tensor xc = x.contiguous();
    at::Tensor result = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnSoftsignCustom, xc, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("softsign_custom", &softsign_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("softsign_custom", &softsign_custom_impl_npu, "softsign: x / (1 + |x|)");
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
        return custom_ops_lib.softsign_custom(x)
'''
