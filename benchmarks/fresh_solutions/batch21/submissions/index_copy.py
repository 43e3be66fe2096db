project_json_src='''
[
    {
        "op": "IndexCopyCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "indices", "param_type": "required", "format": ["ND"], "type": ["int64"]},
            {"name": "src", "param_type": "required", "format": ["ND"], "type": ["float"]}
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
BEGIN_TILING_DATA_DEF(IndexCopyCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, numRows);      // x.size(0)
  TILING_DATA_FIELD_DEF(uint32_t, rowLen);       // elements per row (x.numel() / x.size(0))
  TILING_DATA_FIELD_DEF(uint32_t, numIndices);   // indices.numel() == src.size(0)
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, colTile);      // row is copied in pieces of this size
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(IndexCopyCustom, IndexCopyCustomTilingData)
}
"""

host_operator_src="""
#include "index_copy_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const auto& xs = context->GetInputShape(0)->GetOriginShape();
    const auto& is = context->GetInputShape(1)->GetOriginShape();
    uint32_t numRows = xs.GetDim(0);
    uint32_t rowLen = 1;
    for (size_t d = 1; d < xs.GetDimNum(); ++d) rowLen *= xs.GetDim(d);
    uint32_t numIndices = is.GetShapeSize();

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aiv = platform.GetCoreNumAiv();
    if (aiv == 0) aiv = 1;
    uint32_t rowsPerCore = (numRows + aiv - 1) / aiv;
    uint32_t blockDim = (numRows + rowsPerCore - 1) / rowsPerCore;

    uint32_t colTile = rowLen > 8192 ? 8192 : rowLen;

    IndexCopyCustomTilingData tiling;
    tiling.set_numRows(numRows);
    tiling.set_rowLen(rowLen);
    tiling.set_numIndices(numIndices);
    tiling.set_rowsPerCore(rowsPerCore);
    tiling.set_colTile(colTile);

    context->SetBlockDim(blockDim);
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
class IndexCopyCustom : public OpDef {
public:
    explicit IndexCopyCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("indices").ParamType(REQUIRED).DataType({ge::DT_INT64})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("src").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(IndexCopyCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

/*
 * y = x.index_copy(0, indices, src)
 *
 * Instead of "copy x, then scatter src" (which would need a cross-core barrier),
 * every output row is produced exactly once by the core that owns it:
 *   1. the core scans all indices (in order, so the last duplicate wins, as on CPU)
 *      and records, for each row it owns, which src row lands there (or -1);
 *   2. it streams each owned row from either src or x into y.
 */
class KernelIndexCopy {
public:
    __aicore__ inline KernelIndexCopy() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR indices, GM_ADDR src, GM_ADDR y,
                                const IndexCopyCustomTilingData& t)
    {
        numRows = t.numRows;
        rowLen = t.rowLen;
        numIndices = t.numIndices;
        colTile = t.colTile;
        rowStart = GetBlockIdx() * t.rowsPerCore;
        rowStop = rowStart + t.rowsPerCore;
        if (rowStop > numRows) rowStop = numRows;
        ownRows = rowStop > rowStart ? rowStop - rowStart : 0;

        xGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)numRows * rowLen);
        idxGm.SetGlobalBuffer((__gm__ int64_t*)indices, numIndices);
        srcGm.SetGlobalBuffer((__gm__ float*)src, (uint64_t)numIndices * rowLen);
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)numRows * rowLen);

        uint32_t idxBytes = (numIndices * sizeof(int64_t) + 31) / 32 * 32;
        uint32_t mapBytes = (t.rowsPerCore * sizeof(int32_t) + 31) / 32 * 32;
        pipe.InitBuffer(idxBuf, idxBytes);
        pipe.InitBuffer(mapBuf, mapBytes);
        pipe.InitBuffer(rowQue, BUFFER_NUM, colTile * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (ownRows == 0) return;
        BuildRowMap();
        for (uint32_t r = 0; r < ownRows; ++r) {
            int32_t from = rowMap.GetValue(r);
            uint32_t outRow = rowStart + r;
            if (from >= 0) {
                CopyRow(srcGm, (uint64_t)from * rowLen, (uint64_t)outRow * rowLen);
            } else {
                CopyRow(xGm, (uint64_t)outRow * rowLen, (uint64_t)outRow * rowLen);
            }
        }
    }

private:
    __aicore__ inline void BuildRowMap()
    {
        LocalTensor<int64_t> idxLocal = idxBuf.Get<int64_t>();
        rowMap = mapBuf.Get<int32_t>();
        Duplicate(rowMap, (int32_t)-1, ownRows);

        DataCopyExtParams cp{1, numIndices * (uint32_t)sizeof(int64_t), 0, 0, 0};
        DataCopyPadExtParams<int64_t> pad{false, 0, 0, 0};
        DataCopyPad(idxLocal, idxGm, cp, pad);
        // indices are read by the scalar unit and the map was written by the vector unit
        event_t evt = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(evt);
        WaitFlag<HardEvent::MTE2_S>(evt);
        event_t evt2 = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(evt2);
        WaitFlag<HardEvent::V_S>(evt2);

        for (uint32_t i = 0; i < numIndices; ++i) {
            int64_t dst = idxLocal.GetValue(i);
            if (dst < 0) dst += numRows;   // negative indices wrap like in PyTorch
            if (dst >= (int64_t)rowStart && dst < (int64_t)rowStop) {
                rowMap.SetValue((uint32_t)(dst - rowStart), (int32_t)i);
            }
        }
    }

    __aicore__ inline void CopyRow(GlobalTensor<float>& from, uint64_t fromOff, uint64_t toOff)
    {
        for (uint32_t c = 0; c < rowLen; c += colTile) {
            uint32_t n = rowLen - c;
            if (n > colTile) n = colTile;
            DataCopyExtParams cp{1, n * (uint32_t)sizeof(float), 0, 0, 0};
            DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};

            LocalTensor<float> buf = rowQue.AllocTensor<float>();
            DataCopyPad(buf, from[fromOff + c], cp, pad);
            rowQue.EnQue(buf);
            LocalTensor<float> ready = rowQue.DeQue<float>();
            DataCopyPad(yGm[toOff + c], ready, cp);
            rowQue.FreeTensor(ready);
        }
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> idxBuf;
    TBuf<TPosition::VECCALC> mapBuf;
    // the same buffer goes GM -> UB -> GM, so a VECIN/VECOUT-bound queue is enough
    TQueBind<TPosition::VECIN, TPosition::VECOUT, BUFFER_NUM> rowQue;
    LocalTensor<int32_t> rowMap;
    GlobalTensor<float> xGm, srcGm, yGm;
    GlobalTensor<int64_t> idxGm;
    uint32_t numRows, rowLen, numIndices, colTile;
    uint32_t rowStart, rowStop, ownRows;
};

extern "C" __global__ __aicore__ void index_copy_custom(GM_ADDR x, GM_ADDR indices, GM_ADDR src, GM_ADDR y,
                                                        GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelIndexCopy op;
    op.Init(x, indices, src, y, tilingData);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor index_copy_custom_impl_npu(const at::Tensor& x, const at::Tensor& indices, const at::Tensor& src) {
    at::Tensor xc = x.contiguous();
    at::Tensor ic = indices.to(at::kLong).contiguous();
    at::Tensor sc = src.contiguous();
    at::Tensor y = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnIndexCopyCustom, xc, ic, sc, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("index_copy_custom", &index_copy_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("index_copy_custom", &index_copy_custom_impl_npu, "x.index_copy(0, indices, src)");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def forward(self, x, indices, src):
        return custom_ops_lib.index_copy_custom(x, indices, src)
'''
