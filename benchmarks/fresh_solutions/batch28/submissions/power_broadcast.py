project_json_src='''
[
    {
        "op": "PowerBroadcastCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "exponent", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(PowerBroadcastCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);          // x.numel() / cols
  TILING_DATA_FIELD_DEF(uint32_t, cols);          // broadcast length (last dim of x)
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerRow);
  TILING_DATA_FIELD_DEF(uint32_t, totalTiles);
  TILING_DATA_FIELD_DEF(uint32_t, expScalar);     // exponent has a single element
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(PowerBroadcastCustom, PowerBroadcastCustomTilingData)
}
"""

host_operator_src="""
#include "power_broadcast_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();

    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &es = context->GetInputShape(1)->GetStorageShape();
    uint64_t total = xs.GetShapeSize();
    uint64_t eCount = es.GetShapeSize();
    size_t rank = xs.GetDimNum();
    uint32_t cols = rank == 0 ? 1 : xs.GetDim(rank - 1);

    uint32_t expScalar = 0;
    if (eCount == 1) {
        expScalar = 1;
    } else if (eCount != cols) {
        return ge::GRAPH_FAILED;   // only trailing-dim broadcast is supported
    }
    uint32_t rows = static_cast<uint32_t>(total / cols);

    // small tiles so that even a few rows spread over many cores
    uint32_t tileLen = 512;
    uint32_t tilesPerRow = (cols + tileLen - 1) / tileLen;
    uint32_t totalTiles = rows * tilesPerRow;

    PowerBroadcastCustomTilingData tiling;
    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_tileLen(tileLen);
    tiling.set_tilesPerRow(tilesPerRow);
    tiling.set_totalTiles(totalTiles);
    tiling.set_expScalar(expScalar);

    uint32_t blockDim = totalTiles < coreNum ? totalTiles : coreNum;
    context->SetBlockDim(blockDim == 0 ? 1 : blockDim);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
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
class PowerBroadcastCustom : public OpDef {
public:
    explicit PowerBroadcastCustom(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("exponent").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(PowerBroadcastCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// y[r, c] = x[r, c] ** e[c], evaluated as exp(e * ln(x)) (x is strictly positive for this op).
// Work is split into (row, column-tile) units; the exponent tile is fetched alongside each x tile.
class KernelPowerBroadcast {
public:
    __aicore__ inline KernelPowerBroadcast() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR e, GM_ADDR y, const PowerBroadcastCustomTilingData &t)
    {
        rows = t.rows;
        cols = t.cols;
        tileLen = t.tileLen;
        tilesPerRow = t.tilesPerRow;
        expScalar = t.expScalar;

        uint32_t blockNum = AscendC::GetBlockNum();
        uint32_t blockIdx = AscendC::GetBlockIdx();
        uint32_t base = t.totalTiles / blockNum;
        uint32_t rem = t.totalTiles % blockNum;
        tileBegin = blockIdx * base + (blockIdx < rem ? blockIdx : rem);
        tileEnd = tileBegin + base + (blockIdx < rem ? 1 : 0);

        xGm.SetGlobalBuffer((__gm__ float *)x, (uint64_t)rows * cols);
        eGm.SetGlobalBuffer((__gm__ float *)e, expScalar ? 1 : cols);
        yGm.SetGlobalBuffer((__gm__ float *)y, (uint64_t)rows * cols);

        pipe.InitBuffer(xQueue, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(eQueue, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(yQueue, BUFFER_NUM, tileLen * sizeof(float));
        if (expScalar) {
            expValue = eGm.GetValue(0);
        }
    }

    __aicore__ inline void Process()
    {
        for (uint32_t u = tileBegin; u < tileEnd; ++u) {
            uint32_t r = u / tilesPerRow;
            uint32_t c0 = (u % tilesPerRow) * tileLen;
            uint32_t len = (cols - c0) < tileLen ? (cols - c0) : tileLen;
            CopyIn(r, c0, len);
            Compute(len);
            CopyOut(r, c0, len);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t r, uint32_t c0, uint32_t len)
    {
        AscendC::LocalTensor<float> xLocal = xQueue.AllocTensor<float>();
        AscendC::LocalTensor<float> eLocal = eQueue.AllocTensor<float>();
        AscendC::DataCopyExtParams cp{1, len * (uint32_t)sizeof(float), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(xLocal, xGm[(uint64_t)r * cols + c0], cp, pad);
        if (expScalar) {
            AscendC::Duplicate(eLocal, expValue, len);
        } else {
            AscendC::DataCopyPad(eLocal, eGm[c0], cp, pad);
        }
        xQueue.EnQue(xLocal);
        eQueue.EnQue(eLocal);
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        AscendC::LocalTensor<float> xLocal = xQueue.DeQue<float>();
        AscendC::LocalTensor<float> eLocal = eQueue.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = yQueue.AllocTensor<float>();
        AscendC::Ln(yLocal, xLocal, len);
        AscendC::Mul(yLocal, yLocal, eLocal, len);
        AscendC::Exp(yLocal, yLocal, len);
        yQueue.EnQue(yLocal);
        xQueue.FreeTensor(xLocal);
        eQueue.FreeTensor(eLocal);
    }

    __aicore__ inline void CopyOut(uint32_t r, uint32_t c0, uint32_t len)
    {
        AscendC::LocalTensor<float> yLocal = yQueue.DeQue<float>();
        AscendC::DataCopyExtParams cp{1, len * (uint32_t)sizeof(float), 0, 0, 0};
        AscendC::DataCopyPad(yGm[(uint64_t)r * cols + c0], yLocal, cp);
        yQueue.FreeTensor(yLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> xQueue, eQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> yQueue;
    AscendC::GlobalTensor<float> xGm, eGm, yGm;
    uint32_t rows, cols, tileLen, tilesPerRow, expScalar;
    uint32_t tileBegin, tileEnd;
    float expValue = 1.0f;
};

extern "C" __global__ __aicore__ void power_broadcast_custom(GM_ADDR x, GM_ADDR exponent, GM_ADDR y,
                                                             GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelPowerBroadcast op;
    op.Init(x, exponent, y, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor power_broadcast_custom_impl_npu(const at::Tensor &x, const at::Tensor &exponent)
{
    at::Tensor result = at::empty_like(x);
    EXEC_NPU_CMD(aclnnPowerBroadcastCustom, x, exponent, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("power_broadcast_custom", &power_broadcast_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("power_broadcast_custom", &power_broadcast_custom_impl_npu, "x ** exponent (exponent broadcast on last dim)");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, exponent):
        return custom_ops_lib.power_broadcast_custom(x, exponent)
'''
