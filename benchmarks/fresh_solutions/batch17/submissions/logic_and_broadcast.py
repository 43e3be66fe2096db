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
                "name": "out",
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
  TILING_DATA_FIELD_DEF(uint32_t, midDim);       // broadcast axis of b (512)
  TILING_DATA_FIELD_DEF(uint32_t, innerDim);     // bytes per row (1024)
  TILING_DATA_FIELD_DEF(uint32_t, totalRows);    // outer * mid
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tailRows);     // remainder rows handed to the first cores
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
constexpr uint32_t TILE_BYTES = 32 * 1024;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    LogicAndBroadcastCustomTilingData td;
    const auto& aShape = context->GetInputShape(0)->GetStorageShape();
    const auto& bShape = context->GetInputShape(1)->GetStorageShape();

    // a: (outer, mid, inner), b: (1, mid, 1)
    uint32_t rank = aShape.GetDimNum();
    uint32_t inner = static_cast<uint32_t>(aShape.GetDim(rank - 1));
    uint32_t mid = static_cast<uint32_t>(bShape.GetShapeSize());
    uint32_t totalRows = static_cast<uint32_t>(aShape.GetShapeSize() / inner);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > totalRows) {
        cores = totalRows;
    }
    uint32_t rowsPerTile = TILE_BYTES / inner;
    if (rowsPerTile == 0) {
        rowsPerTile = 1;
    }

    td.set_midDim(mid);
    td.set_innerDim(inner);
    td.set_totalRows(totalRows);
    td.set_rowsPerCore(totalRows / cores);
    td.set_tailRows(totalRows % cores);
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

// out[o, m, i] = a[o, m, i] & b[m]
// bool is stored as one byte holding 0 or 1. A row of `inner` bytes is processed as
// inner/2 uint16 lanes and AND-ed with 0x0101 (b true) or 0x0000 (b false), so every
// row needs exactly one vector And against a per-row constant.
class KernelLogicAndBroadcast {
public:
    __aicore__ inline KernelLogicAndBroadcast() {}
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR out,
                                uint32_t midDim, uint32_t innerDim, uint32_t rowsPerCore,
                                uint32_t tailRows, uint32_t rowsPerTile)
    {
        mid = midDim;
        inner = innerDim;
        halfInner = innerDim / 2;
        tileRows = rowsPerTile;

        uint32_t idx = GetBlockIdx();
        // the first `tailRows` cores take one extra row each
        myRows = rowsPerCore + (idx < tailRows ? 1 : 0);
        rowStart = idx * rowsPerCore + (idx < tailRows ? idx : tailRows);

        aGm.SetGlobalBuffer((__gm__ uint8_t*)a);
        bGm.SetGlobalBuffer((__gm__ uint8_t*)b, mid);
        outGm.SetGlobalBuffer((__gm__ uint8_t*)out);

        pipe.InitBuffer(inQ, BUFFER_NUM, tileRows * inner);
        pipe.InitBuffer(outQ, BUFFER_NUM, tileRows * inner);
        pipe.InitBuffer(maskBuf, inner);
    }

    __aicore__ inline void Process()
    {
        uint32_t done = 0;
        while (done < myRows) {
            uint32_t rows = myRows - done;
            if (rows > tileRows) {
                rows = tileRows;
            }
            uint64_t firstRow = (uint64_t)rowStart + done;
            CopyIn(firstRow, rows);
            Compute(firstRow, rows);
            CopyOut(firstRow, rows);
            done += rows;
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t firstRow, uint32_t rows)
    {
        LocalTensor<uint8_t> aLocal = inQ.AllocTensor<uint8_t>();
        DataCopy(aLocal, aGm[firstRow * inner], rows * inner);
        inQ.EnQue(aLocal);
    }

    __aicore__ inline void Compute(uint64_t firstRow, uint32_t rows)
    {
        LocalTensor<uint8_t> aLocal = inQ.DeQue<uint8_t>();
        LocalTensor<uint8_t> oLocal = outQ.AllocTensor<uint8_t>();
        LocalTensor<uint16_t> a16 = aLocal.ReinterpretCast<uint16_t>();
        LocalTensor<uint16_t> o16 = oLocal.ReinterpretCast<uint16_t>();
        LocalTensor<uint16_t> mask16 = maskBuf.Get<uint16_t>();

        for (uint32_t r = 0; r < rows; r++) {
            uint32_t m = static_cast<uint32_t>((firstRow + r) % mid);
            uint16_t bit = bGm.GetValue(m) ? static_cast<uint16_t>(0x0101) : static_cast<uint16_t>(0);
            Duplicate(mask16, bit, halfInner);
            PipeBarrier<PIPE_V>();
            And(o16[r * halfInner], a16[r * halfInner], mask16, halfInner);
            PipeBarrier<PIPE_V>();
        }

        outQ.EnQue(oLocal);
        inQ.FreeTensor(aLocal);
    }

    __aicore__ inline void CopyOut(uint64_t firstRow, uint32_t rows)
    {
        LocalTensor<uint8_t> oLocal = outQ.DeQue<uint8_t>();
        DataCopy(outGm[firstRow * inner], oLocal, rows * inner);
        outQ.FreeTensor(oLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> maskBuf;
    GlobalTensor<uint8_t> aGm, bGm, outGm;
    uint32_t mid, inner, halfInner, tileRows;
    uint32_t myRows, rowStart;
};

extern "C" __global__ __aicore__ void logic_and_broadcast_custom(GM_ADDR a, GM_ADDR b, GM_ADDR out,
                                                                 GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelLogicAndBroadcast op;
    op.Init(a, b, out, td.midDim, td.innerDim, td.rowsPerCore, td.tailRows, td.rowsPerTile);
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
    // kernel layout: a (outer, mid, inner) contiguous, b (1, mid, 1)
    at::Tensor aa = a.contiguous();
    at::Tensor bb = b.contiguous();
    at::Tensor out = at::empty_like(aa);
    EXEC_NPU_CMD(aclnnLogicAndBroadcastCustom, aa, bb, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("logic_and_broadcast_custom", &logic_and_broadcast_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("logic_and_broadcast_custom", &logic_and_broadcast_custom_impl_npu, "a & b with broadcast of b");
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
