project_json_src='''
[
    {
        "op": "IndexAddCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "indices", "param_type": "required", "format": ["ND"], "type": ["int64"]},
            {"name": "values", "param_type": "required", "format": ["ND"], "type": ["float"]}
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
BEGIN_TILING_DATA_DEF(IndexAddCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, dstRows);      // x.shape[0]
  TILING_DATA_FIELD_DEF(uint32_t, cols);         // row length (prod of trailing dims)
  TILING_DATA_FIELD_DEF(uint32_t, numIndices);   // len(indices) == values.shape[0]
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);  // destination rows owned by one core
  TILING_DATA_FIELD_DEF(uint32_t, colChunk);     // columns accumulated in UB at once
  TILING_DATA_FIELD_DEF(uint32_t, idxChunk);     // indices staged per scan step
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(IndexAddCustom, IndexAddCustomTilingData)
}
"""

host_operator_src="""
#include "index_add_custom_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
constexpr uint32_t CORE_NUM = 32;
constexpr uint32_t ACC_BYTES = 64 * 1024;
constexpr uint32_t IDX_CHUNK = 1024;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    IndexAddCustomTilingData tiling;
    const gert::Shape xs = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape is = context->GetInputShape(1)->GetOriginShape();
    uint32_t dstRows = static_cast<uint32_t>(xs.GetDim(0));
    uint32_t cols = 1;
    for (size_t d = 1; d < xs.GetDimNum(); ++d) cols *= static_cast<uint32_t>(xs.GetDim(d));
    uint32_t numIdx = static_cast<uint32_t>(is.GetShapeSize());

    // Each core owns a disjoint slice of destination rows: no atomics needed,
    // and duplicated indices are accumulated in order inside one core.
    uint32_t cores = CORE_NUM < dstRows ? CORE_NUM : dstRows;
    uint32_t rowsPerCore = (dstRows + cores - 1) / cores;
    cores = (dstRows + rowsPerCore - 1) / rowsPerCore;

    uint32_t colChunk = ACC_BYTES / (rowsPerCore * sizeof(float));
    colChunk = colChunk / 8 * 8;
    if (colChunk == 0) colChunk = 8;
    if (colChunk > cols) colChunk = (cols + 7) / 8 * 8;

    tiling.set_dstRows(dstRows);
    tiling.set_cols(cols);
    tiling.set_numIndices(numIdx);
    tiling.set_rowsPerCore(rowsPerCore);
    tiling.set_colChunk(colChunk);
    tiling.set_idxChunk(IDX_CHUNK);

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
class IndexAddCustom : public OpDef {
public:
    explicit IndexAddCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("indices").ParamType(REQUIRED).DataType({ge::DT_INT64})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("values").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(IndexAddCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// y = x; y[indices[i], :] += values[i, :]
// Ownership by destination row: core c handles rows [c*R, (c+1)*R).
//  1) scan all indices once and keep the (source row, local dest row) pairs that hit my slice
//  2) for each column chunk: load x slice into an accumulator, add every matching values row,
//     write the slice to y.
class KernelIndexAdd {
public:
    __aicore__ inline KernelIndexAdd() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR indices, GM_ADDR values, GM_ADDR y,
                                uint32_t dstRows, uint32_t cols, uint32_t numIdx,
                                uint32_t rowsPerCore, uint32_t colChunk, uint32_t idxChunk)
    {
        this->cols = cols;
        this->numIdx = numIdx;
        this->colChunk = colChunk;
        this->idxChunk = idxChunk;
        rowLo = GetBlockIdx() * rowsPerCore;
        rowHi = rowLo + rowsPerCore;
        if (rowHi > dstRows) rowHi = dstRows;
        ownRows = rowHi > rowLo ? rowHi - rowLo : 0;

        xGm.SetGlobalBuffer((__gm__ float*)x, static_cast<uint64_t>(dstRows) * cols);
        yGm.SetGlobalBuffer((__gm__ float*)y, static_cast<uint64_t>(dstRows) * cols);
        vGm.SetGlobalBuffer((__gm__ float*)values, static_cast<uint64_t>(numIdx) * cols);
        idxGm.SetGlobalBuffer((__gm__ int64_t*)indices, numIdx);

        uint32_t listCap = (numIdx + 7) / 8 * 8;
        pipe.InitBuffer(idxStage, idxChunk * sizeof(int64_t));
        pipe.InitBuffer(srcList, listCap * sizeof(int32_t));
        pipe.InitBuffer(dstList, listCap * sizeof(int32_t));
        pipe.InitBuffer(accBuf, rowsPerCore * colChunk * sizeof(float));
        pipe.InitBuffer(valQue, BUFFER_NUM, colChunk * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (ownRows == 0) return;
        BuildList();
        for (uint32_t c0 = 0; c0 < cols; c0 += colChunk) {
            uint32_t w = cols - c0;
            if (w > colChunk) w = colChunk;
            AccumulateChunk(c0, w);
        }
    }

private:
    __aicore__ inline void BuildList()
    {
        LocalTensor<int64_t> stage = idxStage.Get<int64_t>();
        LocalTensor<int32_t> srcL = srcList.Get<int32_t>();
        LocalTensor<int32_t> dstL = dstList.Get<int32_t>();
        hits = 0;
        for (uint32_t base = 0; base < numIdx; base += idxChunk) {
            uint32_t n = numIdx - base;
            if (n > idxChunk) n = idxChunk;
            DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(int64_t)), 0, 0, 0};
            DataCopyPadExtParams<int64_t> pad{false, 0, 0, 0};
            DataCopyPad(stage, idxGm[base], cp, pad);
            event_t ld = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
            SetFlag<HardEvent::MTE2_S>(ld);
            WaitFlag<HardEvent::MTE2_S>(ld);
            for (uint32_t i = 0; i < n; ++i) {
                int64_t d = stage.GetValue(i);
                if (d >= static_cast<int64_t>(rowLo) && d < static_cast<int64_t>(rowHi)) {
                    srcL.SetValue(hits, static_cast<int32_t>(base + i));
                    dstL.SetValue(hits, static_cast<int32_t>(d - rowLo));
                    ++hits;
                }
            }
            event_t back = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_MTE2));
            SetFlag<HardEvent::S_MTE2>(back);
            WaitFlag<HardEvent::S_MTE2>(back);
        }
    }

    __aicore__ inline void AccumulateChunk(uint32_t c0, uint32_t w)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<int32_t> srcL = srcList.Get<int32_t>();
        LocalTensor<int32_t> dstL = dstList.Get<int32_t>();
        uint32_t wBytes = w * sizeof(float);
        uint32_t padElems = (w + 7) / 8 * 8 - w;
        uint32_t strideBytes = (cols - w) * sizeof(float);

        // x[rowLo:rowHi, c0:c0+w] -> acc (each row padded to colChunk)
        DataCopyExtParams inP{static_cast<uint16_t>(ownRows), wBytes, strideBytes,
                              static_cast<uint32_t>((colChunk - w - padElems) * sizeof(float) / 32), 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0};
        DataCopyPad(acc, xGm[static_cast<uint64_t>(rowLo) * cols + c0], inP, pad);
        event_t mv = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(mv);
        WaitFlag<HardEvent::MTE2_V>(mv);

        for (uint32_t h = 0; h < hits; ++h) {
            int32_t src = srcL.GetValue(h);
            int32_t dl = dstL.GetValue(h);
            LocalTensor<float> v = valQue.AllocTensor<float>();
            DataCopyExtParams vp{1, wBytes, 0, 0, 0};
            DataCopyPad(v, vGm[static_cast<uint64_t>(src) * cols + c0], vp, pad);
            valQue.EnQue(v);
            v = valQue.DeQue<float>();
            Add(acc[dl * colChunk], acc[dl * colChunk], v, w);
            valQue.FreeTensor(v);
        }

        event_t vm = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_MTE3));
        SetFlag<HardEvent::V_MTE3>(vm);
        WaitFlag<HardEvent::V_MTE3>(vm);
        DataCopyExtParams outP{static_cast<uint16_t>(ownRows), wBytes,
                               static_cast<uint32_t>((colChunk - w - padElems) * sizeof(float) / 32), strideBytes, 0};
        DataCopyPad(yGm[static_cast<uint64_t>(rowLo) * cols + c0], acc, outP);
        // acc is reloaded by the next chunk: wait for the store to drain
        event_t mm = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE3_MTE2));
        SetFlag<HardEvent::MTE3_MTE2>(mm);
        WaitFlag<HardEvent::MTE3_MTE2>(mm);
    }

private:
    TPipe pipe;
    TBuf<QuePosition::VECCALC> idxStage, srcList, dstList, accBuf;
    TQue<QuePosition::VECIN, BUFFER_NUM> valQue;
    GlobalTensor<float> xGm, yGm, vGm;
    GlobalTensor<int64_t> idxGm;
    uint32_t cols, numIdx, colChunk, idxChunk, rowLo, rowHi, ownRows, hits;
};

extern "C" __global__ __aicore__ void index_add_custom(GM_ADDR x, GM_ADDR indices, GM_ADDR values, GM_ADDR y,
                                                       GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelIndexAdd op;
    op.Init(x, indices, values, y, td.dstRows, td.cols, td.numIndices, td.rowsPerCore, td.colChunk, td.idxChunk);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor index_add_custom_impl_npu(const at::Tensor& x, const at::Tensor& indices, const at::Tensor& values)
{
    at::Tensor xc = x.contiguous();
    at::Tensor idx = indices.to(at::kLong).contiguous();
    at::Tensor vc = values.contiguous();
    TORCH_CHECK(idx.numel() == vc.size(0), "indices and values length mismatch");
    at::Tensor y = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnIndexAddCustom, xc, idx, vc, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("index_add_custom", &index_add_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("index_add_custom", &index_add_custom_impl_npu, "x.index_add(0, indices, values)");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib

class ModelNew(nn.Module):
    def forward(self, x, indices, values):
        return custom_ops_lib.index_add_custom(x, indices, values)
'''
