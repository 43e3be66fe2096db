project_json_src='''
[
    {
        "op": "LogicAndBroadcastCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "a",
                "param_type": "required",
                "format": ["ND"],
                "type": ["bool"]
            },
            {
                "name": "b",
                "param_type": "required",
                "format": ["ND"],
                "type": ["bool"]
            }
        ],
        "output_desc": [
            {
                "name": "c",
                "param_type": "required",
                "format": ["ND"],
                "type": ["bool"]
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LogicAndBroadcastCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, outerDim);     // a.shape[0]
  TILING_DATA_FIELD_DEF(uint32_t, midDim);       // a.shape[1] == b.shape[1]
  TILING_DATA_FIELD_DEF(uint32_t, innerDim);     // a.shape[2] (bytes per row)
  TILING_DATA_FIELD_DEF(uint32_t, totalRows);    // outerDim * midDim
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tailRows);     // first tailRows cores get one extra row
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LogicAndBroadcastCustom, LogicAndBroadcastCustomTilingData)
}
"""

host_operator_src="""
#include "logic_and_broadcast_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// UB budget for one tile of 'a' (bytes); in+out double buffered + mask buffer stays well below 192KB
constexpr uint32_t TILE_BYTES = 16 * 1024;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    LogicAndBroadcastCustomTilingData tiling;
    const gert::StorageShape* aShape = context->GetInputShape(0);
    const auto& shp = aShape->GetStorageShape();
    uint32_t dimNum = shp.GetDimNum();
    // a is (..., M, K) and b is (1, M, 1): fold all leading dims into outer
    uint32_t innerDim = shp.GetDim(dimNum - 1);
    uint32_t midDim = shp.GetDim(dimNum - 2);
    uint32_t outerDim = 1;
    for (uint32_t i = 0; i + 2 < dimNum; ++i) {
        outerDim *= shp.GetDim(i);
    }
    uint32_t totalRows = outerDim * midDim;

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    if (coreNum == 0) {
        coreNum = 1;
    }
    if (coreNum > totalRows) {
        coreNum = totalRows;
    }

    uint32_t rowsPerTile = TILE_BYTES / innerDim;
    if (rowsPerTile == 0) {
        rowsPerTile = 1;
    }

    tiling.set_outerDim(outerDim);
    tiling.set_midDim(midDim);
    tiling.set_innerDim(innerDim);
    tiling.set_totalRows(totalRows);
    tiling.set_rowsPerCore(totalRows / coreNum);
    tiling.set_tailRows(totalRows % coreNum);
    tiling.set_rowsPerTile(rowsPerTile);

    context->SetBlockDim(coreNum);
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
    const gert::Shape* aShape = context->GetInputShape(0);
    gert::Shape* cShape = context->GetOutputShape(0);
    *cShape = *aShape;
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, ge::DT_BOOL);
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class LogicAndBroadcastCustom : public OpDef {
public:
    explicit LogicAndBroadcastCustom(const char* name) : OpDef(name)
    {
        this->Input("a")
            .ParamType(REQUIRED)
            .DataType({ge::DT_BOOL})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("b")
            .ParamType(REQUIRED)
            .DataType({ge::DT_BOOL})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("c")
            .ParamType(REQUIRED)
            .DataType({ge::DT_BOOL})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(LogicAndBroadcastCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// bool tensors are 1 byte per element holding 0/1. The vector unit has no
// 8-bit And, so each row of 'a' is viewed as int16 pairs and And-ed against a
// per-row mask of 0x0101 (b == true) or 0x0000 (b == false).
class KernelLogicAndBroadcast {
public:
    __aicore__ inline KernelLogicAndBroadcast() {}
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                uint32_t midDim, uint32_t innerDim,
                                uint32_t rowsPerCore, uint32_t tailRows, uint32_t rowsPerTile)
    {
        uint32_t blockIdx = GetBlockIdx();
        this->midDim = midDim;
        this->rowBytes = innerDim;
        this->rowHalfs = innerDim / 2;
        this->rowsPerTile = rowsPerTile;

        // balanced split of rows: first tailRows cores take one extra row
        if (blockIdx < tailRows) {
            myRows = rowsPerCore + 1;
            rowStart = blockIdx * (rowsPerCore + 1);
        } else {
            myRows = rowsPerCore;
            rowStart = tailRows * (rowsPerCore + 1) + (blockIdx - tailRows) * rowsPerCore;
        }

        aGm.SetGlobalBuffer((__gm__ int16_t*)a + (uint64_t)rowStart * rowHalfs, (uint64_t)myRows * rowHalfs);
        cGm.SetGlobalBuffer((__gm__ int16_t*)c + (uint64_t)rowStart * rowHalfs, (uint64_t)myRows * rowHalfs);
        bGm.SetGlobalBuffer((__gm__ uint8_t*)b, midDim);

        uint32_t tileHalfs = rowsPerTile * rowHalfs;
        pipe.InitBuffer(inQue, BUFFER_NUM, tileHalfs * sizeof(int16_t));
        pipe.InitBuffer(outQue, BUFFER_NUM, tileHalfs * sizeof(int16_t));
        pipe.InitBuffer(maskBuf, tileHalfs * sizeof(int16_t));
    }

    __aicore__ inline void Process()
    {
        uint32_t done = 0;
        while (done < myRows) {
            uint32_t rows = myRows - done;
            if (rows > rowsPerTile) {
                rows = rowsPerTile;
            }
            CopyIn(done, rows);
            Compute(done, rows);
            CopyOut(done, rows);
            done += rows;
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t rowOff, uint32_t rows)
    {
        LocalTensor<int16_t> aLocal = inQue.AllocTensor<int16_t>();
        DataCopy(aLocal, aGm[(uint64_t)rowOff * rowHalfs], rows * rowHalfs);
        inQue.EnQue(aLocal);
    }

    __aicore__ inline void Compute(uint32_t rowOff, uint32_t rows)
    {
        LocalTensor<int16_t> aLocal = inQue.DeQue<int16_t>();
        LocalTensor<int16_t> cLocal = outQue.AllocTensor<int16_t>();
        LocalTensor<int16_t> mask = maskBuf.Get<int16_t>();

        // build the broadcast mask row by row from b[row % midDim]
        for (uint32_t r = 0; r < rows; ++r) {
            uint32_t m = (rowStart + rowOff + r) % midDim;
            int16_t bits = (bGm.GetValue(m) != 0) ? (int16_t)0x0101 : (int16_t)0;
            Duplicate(mask[r * rowHalfs], bits, rowHalfs);
        }
        PipeBarrier<PIPE_V>();
        And(cLocal, aLocal, mask, rows * rowHalfs);

        outQue.EnQue(cLocal);
        inQue.FreeTensor(aLocal);
    }

    __aicore__ inline void CopyOut(uint32_t rowOff, uint32_t rows)
    {
        LocalTensor<int16_t> cLocal = outQue.DeQue<int16_t>();
        DataCopy(cGm[(uint64_t)rowOff * rowHalfs], cLocal, rows * rowHalfs);
        outQue.FreeTensor(cLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQue;
    TBuf<QuePosition::VECCALC> maskBuf;
    GlobalTensor<int16_t> aGm;
    GlobalTensor<int16_t> cGm;
    GlobalTensor<uint8_t> bGm;
    uint32_t midDim;
    uint32_t rowBytes;
    uint32_t rowHalfs;
    uint32_t rowsPerTile;
    uint32_t myRows;
    uint32_t rowStart;
};

extern "C" __global__ __aicore__ void logic_and_broadcast_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                                 GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelLogicAndBroadcast op;
    op.Init(a, b, c, td.midDim, td.innerDim, td.rowsPerCore, td.tailRows, td.rowsPerTile);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor logic_and_broadcast_custom_impl_npu(const at::Tensor& a, const at::Tensor& b)
{
    TORCH_CHECK(a.dim() >= 2, "a must have at least 2 dims");
    TORCH_CHECK(a.size(-1) % 32 == 0, "last dim must be a multiple of 32 bytes");
    at::Tensor aC = a.contiguous();
    at::Tensor bC = b.contiguous();
    at::Tensor result = at::empty_like(aC);
    EXEC_NPU_CMD(aclnnLogicAndBroadcastCustom, aC, bC, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("logic_and_broadcast_custom", &logic_and_broadcast_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("logic_and_broadcast_custom", &logic_and_broadcast_custom_impl_npu, "a & b with b broadcast (1, M, 1)");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return custom_ops_lib.logic_and_broadcast_custom(a, b)
'''
