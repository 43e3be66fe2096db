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
                "name": "idx",
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
  TILING_DATA_FIELD_DEF(uint32_t, numRows);        // x.size(0)
  TILING_DATA_FIELD_DEF(uint32_t, rowLen);         // elements per row
  TILING_DATA_FIELD_DEF(uint32_t, numIdx);         // idx.numel()
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);    // destination rows owned by one core
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerChunk);   // max rows moved by one DMA
  TILING_DATA_FIELD_DEF(uint32_t, idxSegLen);      // indices scanned per UB load
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(InplaceUpdateCustom, InplaceUpdateCustomTilingData)
}
"""

host_operator_src="""
#include "inplace_update_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t CHUNK_BYTES = 32 * 1024;
constexpr uint32_t IDX_SEG = 4096;
constexpr uint32_t MAX_ROWS_PER_CORE = 16384;   // int32 row->source map must fit in UB

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    InplaceUpdateCustomTilingData t;
    const auto& xs = context->GetInputShape(0)->GetStorageShape();
    const auto& is = context->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() < 1) {
        return ge::GRAPH_FAILED;
    }
    uint32_t numRows = xs.GetDim(0);
    uint32_t rowLen = 1;
    for (size_t i = 1; i < xs.GetDimNum(); ++i) {
        rowLen *= xs.GetDim(i);
    }
    uint32_t numIdx = is.GetShapeSize();

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores == 0) {
        cores = 1;
    }
    // each core owns a contiguous range of destination rows, so every output
    // row is written by exactly one core and duplicates resolve deterministically
    uint32_t rowsPerCore = (numRows + cores - 1) / cores;
    if (rowsPerCore > MAX_ROWS_PER_CORE) {
        return ge::GRAPH_FAILED;
    }
    uint32_t used = (numRows + rowsPerCore - 1) / rowsPerCore;

    uint32_t rowBytes = rowLen * sizeof(float);
    uint32_t rowsPerChunk = rowBytes >= CHUNK_BYTES ? 1 : CHUNK_BYTES / rowBytes;
    if (rowBytes > 64 * 1024) {
        return ge::GRAPH_FAILED;   // a single row has to fit one UB buffer
    }

    t.set_numRows(numRows);
    t.set_rowLen(rowLen);
    t.set_numIdx(numIdx);
    t.set_rowsPerCore(rowsPerCore);
    t.set_rowsPerChunk(rowsPerChunk);
    t.set_idxSegLen(IDX_SEG);

    context->SetBlockDim(used);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
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
        this->Input("idx")
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

constexpr int32_t BUFFER_NUM = 2;

// y = x; y[idx[j]] = value[j]
// Every core owns rows [rowBegin, rowEnd) of y. It first scans the whole index
// list and records, for each owned row, the LAST j that targets it (so repeated
// indices behave like sequential assignment). Then each owned row is written
// exactly once: runs of untouched rows are copied from x in large blocks, and
// updated rows are copied from value.
class InplaceUpdateKernel {
public:
    __aicore__ inline InplaceUpdateKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR idx, GM_ADDR value, GM_ADDR y,
                                const InplaceUpdateCustomTilingData& t)
    {
        numRows = t.numRows;
        rowLen = t.rowLen;
        numIdx = t.numIdx;
        rowsPerChunk = t.rowsPerChunk;
        idxSegLen = t.idxSegLen;

        rowBegin = AscendC::GetBlockIdx() * t.rowsPerCore;
        rowEnd = rowBegin + t.rowsPerCore;
        if (rowEnd > numRows) {
            rowEnd = numRows;
        }
        ownRows = rowEnd > rowBegin ? rowEnd - rowBegin : 0;

        xGm.SetGlobalBuffer((__gm__ float*)x);
        idxGm.SetGlobalBuffer((__gm__ int64_t*)idx);
        valGm.SetGlobalBuffer((__gm__ float*)value);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        uint32_t mapLen = (t.rowsPerCore + 7) / 8 * 8;
        pipe.InitBuffer(mapBuf, mapLen * sizeof(int32_t));
        pipe.InitBuffer(idxBuf, idxSegLen * sizeof(int64_t));
        pipe.InitBuffer(moveQue, BUFFER_NUM, rowsPerChunk * rowLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (ownRows == 0) {
            return;
        }
        BuildSourceMap();
        WriteRows();
    }

private:
    __aicore__ inline void BuildSourceMap()
    {
        AscendC::LocalTensor<int32_t> srcMap = mapBuf.Get<int32_t>();
        AscendC::LocalTensor<int64_t> idxL = idxBuf.Get<int64_t>();

        AscendC::Duplicate<int32_t>(srcMap, -1, (ownRows + 7) / 8 * 8);
        event_t evVS = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_S));
        AscendC::SetFlag<AscendC::HardEvent::V_S>(evVS);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(evVS);

        for (uint32_t s = 0; s < numIdx; s += idxSegLen) {
            uint32_t cnt = numIdx - s;
            if (cnt > idxSegLen) {
                cnt = idxSegLen;
            }
            // previous segment must be fully consumed before it is overwritten
            event_t evSM = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::S_MTE2));
            AscendC::SetFlag<AscendC::HardEvent::S_MTE2>(evSM);
            AscendC::WaitFlag<AscendC::HardEvent::S_MTE2>(evSM);

            AscendC::DataCopyExtParams cp{1, cnt * (uint32_t)sizeof(int64_t), 0, 0, 0};
            AscendC::DataCopyPadExtParams<int64_t> pad{false, 0, 0, 0};
            AscendC::DataCopyPad(idxL, idxGm[s], cp, pad);

            event_t evMS = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::MTE2_S));
            AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(evMS);
            AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(evMS);

            for (uint32_t k = 0; k < cnt; ++k) {
                int64_t r = idxL.GetValue(k);
                if (r < 0) {
                    r += numRows;          // python-style negative index
                }
                if (r >= (int64_t)rowBegin && r < (int64_t)rowEnd) {
                    srcMap.SetValue((uint32_t)(r - rowBegin), (int32_t)(s + k));
                }
            }
        }
    }

    __aicore__ inline void MoveRows(AscendC::GlobalTensor<float>& src, uint64_t srcRow,
                                    uint64_t dstRow, uint32_t rows)
    {
        uint32_t bytes = rows * rowLen * (uint32_t)sizeof(float);
        AscendC::LocalTensor<float> buf = moveQue.AllocTensor<float>();
        AscendC::DataCopyExtParams cp{1, bytes, 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(buf, src[srcRow * rowLen], cp, pad);
        moveQue.EnQue(buf);
        AscendC::LocalTensor<float> out = moveQue.DeQue<float>();
        AscendC::DataCopyPad(yGm[dstRow * rowLen], out, cp);
        moveQue.FreeTensor(out);
    }

    __aicore__ inline void WriteRows()
    {
        AscendC::LocalTensor<int32_t> srcMap = mapBuf.Get<int32_t>();
        uint32_t r = 0;
        while (r < ownRows) {
            int32_t j = srcMap.GetValue(r);
            if (j >= 0) {
                MoveRows(valGm, (uint64_t)j, (uint64_t)rowBegin + r, 1);
                ++r;
                continue;
            }
            // gather a run of untouched rows and copy them from x in one go
            uint32_t run = 1;
            while (r + run < ownRows && run < rowsPerChunk && srcMap.GetValue(r + run) < 0) {
                ++run;
            }
            MoveRows(xGm, (uint64_t)rowBegin + r, (uint64_t)rowBegin + r, run);
            r += run;
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQueBind<AscendC::TPosition::VECIN, AscendC::TPosition::VECOUT, BUFFER_NUM> moveQue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> mapBuf, idxBuf;
    AscendC::GlobalTensor<float> xGm, valGm, yGm;
    AscendC::GlobalTensor<int64_t> idxGm;
    uint32_t numRows = 0, rowLen = 0, numIdx = 0;
    uint32_t rowsPerChunk = 1, idxSegLen = 1;
    uint32_t rowBegin = 0, rowEnd = 0, ownRows = 0;
};

extern "C" __global__ __aicore__ void inplace_update_custom(GM_ADDR x, GM_ADDR idx, GM_ADDR value, GM_ADDR y,
                                                            GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    InplaceUpdateKernel op;
    op.Init(x, idx, value, y, tilingData);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// x[idx] = value, then return x (as the reference does)
at::Tensor inplace_update_custom_impl_npu(at::Tensor& x, const at::Tensor& idx, const at::Tensor& value)
{
    at::Tensor xc = x.contiguous();
    at::Tensor ic = idx.to(at::kLong).contiguous();
    at::Tensor vc = value.to(xc.scalar_type()).contiguous();
    at::Tensor y = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnInplaceUpdateCustom, xc, ic, vc, y);
    // keep the in-place contract of the reference module
    x.copy_(y);
    return x;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("inplace_update_custom", &inplace_update_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("inplace_update_custom", &inplace_update_custom_impl_npu, "x[idx] = value (row update)");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib


class ModelNew(nn.Module):
    def forward(self, x, idx, value):
        return custom_ops_lib.inplace_update_custom(x, idx, value)
'''
