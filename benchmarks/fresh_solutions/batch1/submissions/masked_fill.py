project_json_src='''
[
    {
        "op": "MaskedFillCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "mask",
                "param_type": "required",
                "format": ["ND"],
                "type": ["bool"]
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
BEGIN_TILING_DATA_DEF(MaskedFillCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, totalLength);
  TILING_DATA_FIELD_DEF(uint32_t, perCore);     // elements per core (multiple of tile granularity)
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);  // elements per UB tile
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MaskedFillCustom, MaskedFillCustomTilingData)
}
"""

host_operator_src="""
#include "masked_fill_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_LENGTH = 4096;  // multiple of 128 (Compare on half works on 256B units)
constexpr uint32_t ALIGN_ELEMS = 256;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    MaskedFillCustomTilingData tiling;
    uint32_t total = static_cast<uint32_t>(context->GetInputShape(0)->GetOriginShape().GetShapeSize());
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores == 0) cores = 1;

    // split evenly, each core's share rounded up to ALIGN_ELEMS
    uint32_t perCore = (total + cores - 1) / cores;
    perCore = (perCore + ALIGN_ELEMS - 1) / ALIGN_ELEMS * ALIGN_ELEMS;
    if (perCore == 0) perCore = ALIGN_ELEMS;
    uint32_t used = (total + perCore - 1) / perCore;
    if (used == 0) used = 1;

    tiling.set_totalLength(total);
    tiling.set_perCore(perCore);
    tiling.set_tileLength(TILE_LENGTH < perCore ? TILE_LENGTH : perCore);

    context->SetBlockDim(used);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
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
class MaskedFillCustom : public OpDef {
public:
    explicit MaskedFillCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("mask")
            .ParamType(REQUIRED)
            .DataType({ge::DT_BOOL})
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

OP_ADD(MaskedFillCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// y = mask ? -inf : x
// mask (bool, 1 byte) -> half via Cast, compare against 0 to get a bit mask,
// then Select keeps x where mask == 0 and writes the -inf scalar elsewhere.
class KernelMaskedFill {
public:
    __aicore__ inline KernelMaskedFill() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR mask, GM_ADDR y, uint32_t totalLength,
                                uint32_t perCore, uint32_t tileLength)
    {
        uint64_t start = (uint64_t)perCore * AscendC::GetBlockIdx();
        uint32_t len = 0;
        if (start < totalLength) {
            len = totalLength - (uint32_t)start;
            if (len > perCore) len = perCore;
        }
        this->coreLength = len;
        this->tileLength = tileLength;

        xGm.SetGlobalBuffer((__gm__ float*)x + start, len);
        maskGm.SetGlobalBuffer((__gm__ uint8_t*)mask + start, len);
        yGm.SetGlobalBuffer((__gm__ float*)y + start, len);

        pipe.InitBuffer(xQueue, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(maskQueue, BUFFER_NUM, tileLength * sizeof(uint8_t));
        pipe.InitBuffer(yQueue, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(maskHalfBuf, tileLength * sizeof(half));
        pipe.InitBuffer(selBuf, tileLength / 8);  // one bit per element
    }

    __aicore__ inline void Process()
    {
        uint32_t tiles = (coreLength + tileLength - 1) / tileLength;
        for (uint32_t i = 0; i < tiles; ++i) {
            uint32_t offset = i * tileLength;
            uint32_t cur = coreLength - offset;
            if (cur > tileLength) cur = tileLength;
            CopyIn(offset, cur);
            Compute(cur);
            CopyOut(offset, cur);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t offset, uint32_t cur)
    {
        AscendC::LocalTensor<float> xLocal = xQueue.AllocTensor<float>();
        AscendC::LocalTensor<uint8_t> mLocal = maskQueue.AllocTensor<uint8_t>();
        AscendC::DataCopyExtParams xp{1, cur * (uint32_t)sizeof(float), 0, 0, 0};
        AscendC::DataCopyExtParams mp{1, cur, 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> xpad{false, 0, 0, 0.0f};
        AscendC::DataCopyPadExtParams<uint8_t> mpad{false, 0, 0, 0};
        AscendC::DataCopyPad(xLocal, xGm[offset], xp, xpad);
        AscendC::DataCopyPad(mLocal, maskGm[offset], mp, mpad);
        xQueue.EnQue(xLocal);
        maskQueue.EnQue(mLocal);
    }

    __aicore__ inline void Compute(uint32_t cur)
    {
        AscendC::LocalTensor<float> xLocal = xQueue.DeQue<float>();
        AscendC::LocalTensor<uint8_t> mLocal = maskQueue.DeQue<uint8_t>();
        AscendC::LocalTensor<float> yLocal = yQueue.AllocTensor<float>();
        AscendC::LocalTensor<half> mHalf = maskHalfBuf.Get<half>();
        AscendC::LocalTensor<uint8_t> sel = selBuf.Get<uint8_t>();

        // compare / select operate on whole 256B repeats, round the count up
        uint32_t calc = (cur + 127) / 128 * 128;
        AscendC::Cast(mHalf, mLocal, AscendC::RoundMode::CAST_NONE, calc);
        AscendC::PipeBarrier<PIPE_V>();
        // bit = 1 where mask == 0 (keep x)
        AscendC::CompareScalar(sel, mHalf, (half)0.0f, AscendC::CMPMODE::EQ, calc);
        AscendC::PipeBarrier<PIPE_V>();
        const float negInf = -__builtin_inff();
        AscendC::Select(yLocal, sel, xLocal, negInf, AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE, calc);

        yQueue.EnQue(yLocal);
        xQueue.FreeTensor(xLocal);
        maskQueue.FreeTensor(mLocal);
    }

    __aicore__ inline void CopyOut(uint32_t offset, uint32_t cur)
    {
        AscendC::LocalTensor<float> yLocal = yQueue.DeQue<float>();
        AscendC::DataCopyExtParams yp{1, cur * (uint32_t)sizeof(float), 0, 0, 0};
        AscendC::DataCopyPad(yGm[offset], yLocal, yp);
        yQueue.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> xQueue, maskQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> yQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> maskHalfBuf, selBuf;
    AscendC::GlobalTensor<float> xGm, yGm;
    AscendC::GlobalTensor<uint8_t> maskGm;
    uint32_t coreLength;
    uint32_t tileLength;
};

extern "C" __global__ __aicore__ void masked_fill_custom(GM_ADDR x, GM_ADDR mask, GM_ADDR y,
                                                         GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelMaskedFill op;
    op.Init(x, mask, y, tilingData.totalLength, tilingData.perCore, tilingData.tileLength);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor masked_fill_custom_impl_npu(const at::Tensor& x, const at::Tensor& mask)
{
    TORCH_CHECK(x.sizes() == mask.sizes(), "masked_fill_custom: mask must match x shape");
    at::Tensor xc = x.contiguous();
    at::Tensor mc = mask.to(at::kBool).contiguous();
    at::Tensor result = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnMaskedFillCustom, xc, mc, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("masked_fill_custom", &masked_fill_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("masked_fill_custom", &masked_fill_custom_impl_npu, "x.masked_fill(mask, -inf)");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()

    def forward(self, x, mask):
        return custom_ops_lib.masked_fill_custom(x, mask)
'''
