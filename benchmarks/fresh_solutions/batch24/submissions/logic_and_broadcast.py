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
                "name": "y",
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
  TILING_DATA_FIELD_DEF(uint32_t, outerSize);    // a.shape[0]
  TILING_DATA_FIELD_DEF(uint32_t, midSize);      // a.shape[1] == b.numel()
  TILING_DATA_FIELD_DEF(uint32_t, innerSize);    // prod(a.shape[2:]) in bytes
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);  // rows (outer*mid) handled by one core
  TILING_DATA_FIELD_DEF(uint32_t, tileRows);     // rows moved per pipeline step
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LogicAndBroadcastCustom, LogicAndBroadcastCustomTilingData)
}
"""

host_operator_src="""
#include "logic_and_broadcast_custom_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
constexpr uint32_t MAX_CORES = 40;
constexpr uint32_t TILE_BYTES = 32 * 1024;   // per buffer, a-tile and y-tile double buffered

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    LogicAndBroadcastCustomTilingData tiling;
    const gert::Shape aShape = context->GetInputShape(0)->GetOriginShape();
    if (aShape.GetDimNum() < 2) {
        return ge::GRAPH_FAILED;
    }
    uint32_t outer = static_cast<uint32_t>(aShape.GetDim(0));
    uint32_t mid = static_cast<uint32_t>(aShape.GetDim(1));
    uint32_t inner = 1;
    for (size_t i = 2; i < aShape.GetDimNum(); ++i) {
        inner *= static_cast<uint32_t>(aShape.GetDim(i));
    }
    // the kernel views every row as int16 words moved in 32B blocks
    if (inner % 32 != 0) {
        return ge::GRAPH_FAILED;
    }

    uint32_t totalRows = outer * mid;
    uint32_t coreNum = MAX_CORES;
    while (coreNum > 1 && totalRows % coreNum != 0) {
        --coreNum;
    }
    uint32_t rowsPerCore = totalRows / coreNum;
    uint32_t tileRows = TILE_BYTES / inner;
    if (tileRows == 0) tileRows = 1;
    if (tileRows > rowsPerCore) tileRows = rowsPerCore;

    tiling.set_outerSize(outer);
    tiling.set_midSize(mid);
    tiling.set_innerSize(inner);
    tiling.set_rowsPerCore(rowsPerCore);
    tiling.set_tileRows(tileRows);

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
    *context->GetOutputShape(0) = *context->GetInputShape(0);
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
        this->Output("y")
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

// y[o, m, i] = a[o, m, i] & b[m]
// bool bytes are 0/1, so AND with a per-row scalar is a multiply by 0 or 1.
// Rows are processed as int16 words (two bools per word), which keeps the
// vector unit on a supported type and is exact for 0/1 bytes.
class KernelLogicAndBroadcast {
public:
    __aicore__ inline KernelLogicAndBroadcast() {}
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR y,
                                uint32_t mid, uint32_t inner, uint32_t rowsPerCore, uint32_t tileRows)
    {
        this->mid = mid;
        this->inner = inner;
        this->rowsPerCore = rowsPerCore;
        this->tileRows = tileRows;
        this->rowStart = rowsPerCore * GetBlockIdx();

        uint64_t base = static_cast<uint64_t>(rowStart) * inner;
        aGm.SetGlobalBuffer((__gm__ uint8_t*)a + base, static_cast<uint64_t>(rowsPerCore) * inner);
        yGm.SetGlobalBuffer((__gm__ uint8_t*)y + base, static_cast<uint64_t>(rowsPerCore) * inner);
        bGm.SetGlobalBuffer((__gm__ uint8_t*)b, mid);

        this->midAligned = (mid + 31) / 32 * 32;
        pipe.InitBuffer(inQueA, BUFFER_NUM, tileRows * inner);
        pipe.InitBuffer(outQueY, BUFFER_NUM, tileRows * inner);
        pipe.InitBuffer(bBuf, midAligned);
    }

    __aicore__ inline void Process()
    {
        // the broadcast operand is tiny, keep it resident in UB for scalar reads
        LocalTensor<uint8_t> bLocal = bBuf.Get<uint8_t>();
        DataCopyExtParams bParams{1, mid, 0, 0, 0};
        DataCopyPadExtParams<uint8_t> padParams{false, 0, 0, 0};
        DataCopyPad(bLocal, bGm, bParams, padParams);
        event_t evt = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(evt);
        WaitFlag<HardEvent::MTE2_S>(evt);

        uint32_t done = 0;
        while (done < rowsPerCore) {
            uint32_t rows = rowsPerCore - done;
            if (rows > tileRows) rows = tileRows;
            CopyIn(done, rows);
            Compute(done, rows, bLocal);
            CopyOut(done, rows);
            done += rows;
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t rowOff, uint32_t rows)
    {
        LocalTensor<uint8_t> aLocal = inQueA.AllocTensor<uint8_t>();
        DataCopy(aLocal, aGm[static_cast<uint64_t>(rowOff) * inner], rows * inner);
        inQueA.EnQue(aLocal);
    }

    __aicore__ inline void Compute(uint32_t rowOff, uint32_t rows, LocalTensor<uint8_t>& bLocal)
    {
        LocalTensor<uint8_t> aLocal = inQueA.DeQue<uint8_t>();
        LocalTensor<uint8_t> yLocal = outQueY.AllocTensor<uint8_t>();
        LocalTensor<int16_t> a16 = aLocal.ReinterpretCast<int16_t>();
        LocalTensor<int16_t> y16 = yLocal.ReinterpretCast<int16_t>();
        uint32_t words = inner / 2;

        for (uint32_t r = 0; r < rows; ++r) {
            uint32_t globalRow = rowStart + rowOff + r;
            uint32_t m = globalRow % mid;
            int16_t flag = bLocal.GetValue(m) != 0 ? static_cast<int16_t>(1) : static_cast<int16_t>(0);
            if (flag != 0) {
                Adds(y16[r * words], a16[r * words], static_cast<int16_t>(0), words);
            } else {
                Duplicate(y16[r * words], static_cast<int16_t>(0), words);
            }
        }

        outQueY.EnQue(yLocal);
        inQueA.FreeTensor(aLocal);
    }

    __aicore__ inline void CopyOut(uint32_t rowOff, uint32_t rows)
    {
        LocalTensor<uint8_t> yLocal = outQueY.DeQue<uint8_t>();
        DataCopy(yGm[static_cast<uint64_t>(rowOff) * inner], yLocal, rows * inner);
        outQueY.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueA;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueY;
    TBuf<QuePosition::VECCALC> bBuf;
    GlobalTensor<uint8_t> aGm, bGm, yGm;
    uint32_t mid, inner, rowsPerCore, tileRows, rowStart, midAligned;
};

extern "C" __global__ __aicore__ void logic_and_broadcast_custom(GM_ADDR a, GM_ADDR b, GM_ADDR y,
                                                                 GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelLogicAndBroadcast op;
    op.Init(a, b, y, td.midSize, td.innerSize, td.rowsPerCore, td.tileRows);
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
    TORCH_CHECK(a.scalar_type() == at::kBool && b.scalar_type() == at::kBool, "inputs must be bool");
    TORCH_CHECK(a.dim() >= 2 && b.numel() == a.size(1), "b must broadcast along dim 1 of a");
    at::Tensor aC = a.contiguous();
    at::Tensor bC = b.contiguous().view({b.numel()});
    at::Tensor result = at::empty_like(aC);
    EXEC_NPU_CMD(aclnnLogicAndBroadcastCustom, aC, bC, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("logic_and_broadcast_custom", &logic_and_broadcast_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("logic_and_broadcast_custom", &logic_and_broadcast_custom_impl_npu, "a & b with channel broadcast");
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
