project_json_src='''
[
    {
        "op": "LogicAndBroadcastCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "a",
                "param_type": "required",
                "format": [
                    "ND"
                ],
                "type": [
                    "bool"
                ]
            },
            {
                "name": "b",
                "param_type": "required",
                "format": [
                    "ND"
                ],
                "type": [
                    "bool"
                ]
            }
        ],
        "output_desc": [
            {
                "name": "out",
                "param_type": "required",
                "format": [
                    "ND"
                ],
                "type": [
                    "bool"
                ]
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LogicAndBroadcastCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);        // outer * mid  (128 * 512)
  TILING_DATA_FIELD_DEF(uint32_t, midLen);      // length of the broadcast axis of b (512)
  TILING_DATA_FIELD_DEF(uint32_t, innerBytes);  // bytes per row (1024)
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, rowsRemain);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile); // rows moved per DataCopy
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LogicAndBroadcastCustom, LogicAndBroadcastCustomTilingData)
}
"""

host_operator_src="""
#include "logic_and_broadcast_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_BYTES = 16 * 1024;

// a: (outer, mid, inner)   b: (1, mid, 1)   ->   out: (outer, mid, inner)
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    LogicAndBroadcastCustomTilingData td;
    const auto& aShape = context->GetInputShape(0)->GetStorageShape();
    const auto& bShape = context->GetInputShape(1)->GetStorageShape();
    size_t rank = aShape.GetDimNum();
    if (rank < 2 || bShape.GetDimNum() != rank) {
        return ge::GRAPH_FAILED;
    }
    uint32_t mid = bShape.GetDim(rank - 2);
    uint32_t inner = aShape.GetDim(rank - 1);
    uint32_t rows = 1;
    for (size_t i = 0; i + 1 < rank; ++i) {
        rows *= aShape.GetDim(i);
    }
    // inner rows are handled as packed 16-bit lanes, one 32-byte block at least
    if (inner % 32 != 0) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores == 0) cores = 1;
    if (cores > rows) cores = rows;

    uint32_t rowsPerTile = TILE_BYTES / inner;
    if (rowsPerTile == 0) rowsPerTile = 1;

    td.set_rows(rows);
    td.set_midLen(mid);
    td.set_innerBytes(inner);
    td.set_rowsPerCore(rows / cores);
    td.set_rowsRemain(rows % cores);
    td.set_rowsPerTile(rowsPerTile);

    context->SetBlockDim(cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
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
        this->Output("out")
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

// Booleans are stored one per byte (0 / 1). Two neighbouring bytes are handled as one
// uint16 lane, and AND is done bitwise against a per-row mask of 0xFFFF (b true) or 0.
class KernelLogicAndBroadcast {
public:
    __aicore__ inline KernelLogicAndBroadcast() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR out, const LogicAndBroadcastCustomTilingData& td)
    {
        midLen = td.midLen;
        rowBytes = td.innerBytes;
        rowHalves = rowBytes / 2;
        rowsPerTile = td.rowsPerTile;

        uint32_t core = GetBlockIdx();
        myRows = td.rowsPerCore + (core < td.rowsRemain ? 1 : 0);
        firstRow = core * td.rowsPerCore + (core < td.rowsRemain ? core : td.rowsRemain);

        aGm.SetGlobalBuffer((__gm__ uint8_t*)a);
        outGm.SetGlobalBuffer((__gm__ uint8_t*)out);
        bGm.SetGlobalBuffer((__gm__ uint8_t*)b, midLen);

        uint32_t tileBytes = rowsPerTile * rowBytes;
        pipe.InitBuffer(inQ, BUFFER_NUM, tileBytes);
        pipe.InitBuffer(outQ, BUFFER_NUM, tileBytes);
        pipe.InitBuffer(maskBuf, tileBytes);
        // the whole (small) b vector sits in UB for the lifetime of the kernel
        bPadded = (midLen + 31) / 32 * 32;
        pipe.InitBuffer(bBuf, bPadded);
    }

    __aicore__ inline void Process()
    {
        LoadB();
        uint32_t done = 0;
        while (done < myRows) {
            uint32_t n = (myRows - done < rowsPerTile) ? (myRows - done) : rowsPerTile;
            uint32_t row0 = firstRow + done;
            CopyIn(row0, n);
            Compute(row0, n);
            CopyOut(row0, n);
            done += n;
        }
    }

private:
    __aicore__ inline void LoadB()
    {
        LocalTensor<uint8_t> bLocal = bBuf.Get<uint8_t>();
        DataCopyExtParams cp{1, midLen, 0, 0, 0};
        DataCopyPadExtParams<uint8_t> pad{false, 0, 0, 0};
        DataCopyPad(bLocal, bGm, cp, pad);
        // b flags are read by the scalar unit when building masks
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(e);
        WaitFlag<HardEvent::MTE2_S>(e);
    }

    __aicore__ inline void CopyIn(uint32_t row0, uint32_t n)
    {
        LocalTensor<uint8_t> aLocal = inQ.AllocTensor<uint8_t>();
        DataCopy(aLocal, aGm[static_cast<uint64_t>(row0) * rowBytes], n * rowBytes);
        inQ.EnQue(aLocal);
    }

    __aicore__ inline void Compute(uint32_t row0, uint32_t n)
    {
        LocalTensor<uint8_t> aLocal = inQ.DeQue<uint8_t>();
        LocalTensor<uint8_t> oLocal = outQ.AllocTensor<uint8_t>();
        LocalTensor<uint8_t> bLocal = bBuf.Get<uint8_t>();
        LocalTensor<uint16_t> mask = maskBuf.Get<uint16_t>();

        for (uint32_t r = 0; r < n; ++r) {
            uint32_t m = (row0 + r) % midLen;
            uint16_t bits = (bLocal.GetValue(m) != 0) ? static_cast<uint16_t>(0xFFFF) : static_cast<uint16_t>(0);
            Duplicate(mask[r * rowHalves], bits, rowHalves);
        }

        LocalTensor<uint16_t> a16 = aLocal.ReinterpretCast<uint16_t>();
        LocalTensor<uint16_t> o16 = oLocal.ReinterpretCast<uint16_t>();
        And(o16, a16, mask, n * rowHalves);

        outQ.EnQue(oLocal);
        inQ.FreeTensor(aLocal);
    }

    __aicore__ inline void CopyOut(uint32_t row0, uint32_t n)
    {
        LocalTensor<uint8_t> oLocal = outQ.DeQue<uint8_t>();
        DataCopy(outGm[static_cast<uint64_t>(row0) * rowBytes], oLocal, n * rowBytes);
        outQ.FreeTensor(oLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<QuePosition::VECCALC> maskBuf;
    TBuf<QuePosition::VECCALC> bBuf;
    GlobalTensor<uint8_t> aGm, bGm, outGm;

    uint32_t midLen = 1;
    uint32_t rowBytes = 0;
    uint32_t rowHalves = 0;
    uint32_t rowsPerTile = 1;
    uint32_t myRows = 0;
    uint32_t firstRow = 0;
    uint32_t bPadded = 32;
};

extern "C" __global__ __aicore__ void logic_and_broadcast_custom(GM_ADDR a, GM_ADDR b, GM_ADDR out,
                                                                GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelLogicAndBroadcast op;
    op.Init(a, b, out, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor logic_and_broadcast_impl_npu(const at::Tensor& a, const at::Tensor& b)
{
    TORCH_CHECK(a.scalar_type() == at::kBool && b.scalar_type() == at::kBool, "expects bool tensors");
    TORCH_CHECK(a.dim() == b.dim(), "a and b must have the same rank");
    at::Tensor ac = a.contiguous();
    at::Tensor bc = b.contiguous();
    at::Tensor out = at::empty_like(ac);
    EXEC_NPU_CMD(aclnnLogicAndBroadcastCustom, ac, bc, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("logic_and_broadcast_custom", &logic_and_broadcast_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("logic_and_broadcast_custom", &logic_and_broadcast_impl_npu, "a & b with b broadcast over (1, C, 1)");
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
