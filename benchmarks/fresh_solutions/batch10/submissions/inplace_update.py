project_json_src='''
[
    {
        "op": "InplaceUpdateCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "indices",
                "param_type": "required",
                "format": ["ND"],
                "type": ["int64"]
            },
            {
                "name": "value",
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
BEGIN_TILING_DATA_DEF(InplaceUpdateCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, numRows);      // rows of x
  TILING_DATA_FIELD_DEF(uint32_t, rowLen);       // elements per row
  TILING_DATA_FIELD_DEF(uint32_t, numIndices);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, extraRows);    // first extraRows cores own one more row
  TILING_DATA_FIELD_DEF(uint32_t, copyTile);     // elements per bulk-copy tile
  TILING_DATA_FIELD_DEF(uint32_t, colTile);      // elements per row-chunk in the scatter phase
  TILING_DATA_FIELD_DEF(uint32_t, idxTile);      // indices loaded into UB at a time
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(InplaceUpdateCustom, InplaceUpdateCustomTilingData)
}
"""

host_operator_src="""
#include "inplace_update_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t COPY_TILE = 16384;  // 64KB per buffer
constexpr uint32_t COL_TILE = 8192;
constexpr uint32_t IDX_TILE = 2048;    // 16KB of int64

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    InplaceUpdateCustomTilingData tiling;
    auto xShape = context->GetInputShape(0)->GetStorageShape();
    auto iShape = context->GetInputShape(1)->GetStorageShape();
    uint32_t rows = xShape.GetDim(0);
    uint32_t rowLen = 1;
    for (size_t i = 1; i < xShape.GetDimNum(); ++i) {
        rowLen *= xShape.GetDim(i);
    }
    uint32_t numIdx = iShape.GetShapeSize();

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > rows) cores = rows;
    if (cores == 0) cores = 1;

    tiling.set_numRows(rows);
    tiling.set_rowLen(rowLen);
    tiling.set_numIndices(numIdx);
    tiling.set_rowsPerCore(rows / cores);
    tiling.set_extraRows(rows % cores);
    tiling.set_copyTile(COPY_TILE);
    tiling.set_colTile(rowLen < COL_TILE ? rowLen : COL_TILE);
    tiling.set_idxTile(IDX_TILE);

    context->SetBlockDim(cores);
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
class InplaceUpdateCustom : public OpDef {
public:
    explicit InplaceUpdateCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("indices")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT64})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("value")
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

OP_ADD(InplaceUpdateCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

// y = x; y[idx[j], :] = value[j, :] for j = 0..K-1 (later j wins on duplicates,
// matching sequential semantics of x[idx] = value).
//
// Rows of y are partitioned between cores, so every core only ever writes rows it
// owns and no cross-core synchronisation is needed:
//   phase 1: bulk copy of the owned slice x -> y
//   phase 2: scan all indices in order, and copy value rows whose target is owned
// All GM writes of one core go through the MTE3 queue in issue order, so a row
// written in phase 2 always lands after its phase-1 copy, and duplicates resolve
// to the last index.
class KernelInplaceUpdate {
public:
    __aicore__ inline KernelInplaceUpdate() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR indices, GM_ADDR value, GM_ADDR y,
                                const InplaceUpdateCustomTilingData& td)
    {
        numRows = td.numRows;
        rowLen = td.rowLen;
        numIdx = td.numIndices;
        copyTile = td.copyTile;
        colTile = td.colTile;
        idxTile = td.idxTile;

        uint32_t id = GetBlockIdx();
        uint32_t cnt = td.rowsPerCore + (id < td.extraRows ? 1 : 0);
        rowBegin = id * td.rowsPerCore + (id < td.extraRows ? id : td.extraRows);
        rowEnd = rowBegin + cnt;

        xGm.SetGlobalBuffer((__gm__ float*)x);
        idxGm.SetGlobalBuffer((__gm__ int64_t*)indices, numIdx);
        valGm.SetGlobalBuffer((__gm__ float*)value);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        pipe.InitBuffer(moveQ, 2, copyTile * sizeof(float));
        pipe.InitBuffer(idxBuf, idxTile * sizeof(int64_t));
    }

    __aicore__ inline void Process()
    {
        CopyOwnedRows();
        PipeBarrier<PIPE_ALL>();
        ScatterValues();
    }

private:
    // move `len` floats GM -> UB -> GM through the bind queue
    __aicore__ inline void Move(GlobalTensor<float>& dst, uint64_t dstOff,
                                GlobalTensor<float>& src, uint64_t srcOff, uint32_t len)
    {
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        LocalTensor<float> buf = moveQ.AllocTensor<float>();
        DataCopyPad(buf, src[srcOff], cp, noPad);
        moveQ.EnQue(buf);
        buf = moveQ.DeQue<float>();
        DataCopyPad(dst[dstOff], buf, cp);
        moveQ.FreeTensor(buf);
    }

    __aicore__ inline void CopyOwnedRows()
    {
        uint64_t begin = (uint64_t)rowBegin * rowLen;
        uint64_t end = (uint64_t)rowEnd * rowLen;
        for (uint64_t off = begin; off < end; off += copyTile) {
            uint64_t left = end - off;
            uint32_t len = left < copyTile ? static_cast<uint32_t>(left) : copyTile;
            Move(yGm, off, xGm, off, len);
        }
    }

    __aicore__ inline void ScatterValues()
    {
        LocalTensor<int64_t> idxLocal = idxBuf.Get<int64_t>();
        DataCopyPadExtParams<int64_t> noPad{false, 0, 0, 0};
        for (uint32_t base = 0; base < numIdx; base += idxTile) {
            uint32_t n = (numIdx - base < idxTile) ? (numIdx - base) : idxTile;

            // the previous chunk's scalar reads must finish before the buffer is overwritten
            event_t evSM = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE2));
            SetFlag<HardEvent::S_MTE2>(evSM);
            WaitFlag<HardEvent::S_MTE2>(evSM);
            DataCopyPad(idxLocal, idxGm[base],
                        DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(int64_t)), 0, 0, 0}, noPad);
            event_t evMS = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
            SetFlag<HardEvent::MTE2_S>(evMS);
            WaitFlag<HardEvent::MTE2_S>(evMS);

            for (uint32_t j = 0; j < n; ++j) {
                int64_t r = idxLocal.GetValue(j);
                if (r < 0) {
                    r += numRows;    // python-style negative index
                }
                if (r < (int64_t)rowBegin || r >= (int64_t)rowEnd) {
                    continue;
                }
                uint64_t dstRow = (uint64_t)r * rowLen;
                uint64_t srcRow = (uint64_t)(base + j) * rowLen;
                for (uint32_t c = 0; c < rowLen; c += colTile) {
                    uint32_t len = (rowLen - c < colTile) ? (rowLen - c) : colTile;
                    Move(yGm, dstRow + c, valGm, srcRow + c, len);
                }
            }
        }
    }

private:
    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 2> moveQ;
    TBuf<TPosition::VECCALC> idxBuf;
    GlobalTensor<float> xGm, valGm, yGm;
    GlobalTensor<int64_t> idxGm;

    uint32_t numRows, rowLen, numIdx;
    uint32_t copyTile, colTile, idxTile;
    uint32_t rowBegin, rowEnd;
};

extern "C" __global__ __aicore__ void inplace_update_custom(GM_ADDR x, GM_ADDR indices, GM_ADDR value,
                                                            GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelInplaceUpdate op;
    op.Init(x, indices, value, y, tilingData);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor inplace_update_custom_impl_npu(at::Tensor& x, const at::Tensor& idx, const at::Tensor& value)
{
    at::Tensor xc = x.contiguous();
    at::Tensor ic = idx.to(at::kLong).contiguous();
    at::Tensor vc = value.to(x.dtype()).contiguous();
    at::Tensor result = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnInplaceUpdateCustom, xc, ic, vc, result);
    // keep the in-place semantics of `x[idx] = value` for the caller
    x.copy_(result);
    return x;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("inplace_update_custom", &inplace_update_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("inplace_update_custom", &inplace_update_custom_impl_npu, "x[idx] = value");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, x, idx, value):
        return custom_ops_lib.inplace_update_custom(x, idx, value)
'''
